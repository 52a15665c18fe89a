#!/usr/bin/env bash
# Compares two builds of Switchboard on the same benchmarks: builds each in a scratch directory, then runs the
# harness of each in its own JVM, round after round, the order flipped every round, and prints per benchmark the
# median and range of the per-round ratios HEAD / BASE of Switchboard's median time. Run with --help.
set -euo pipefail

SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(git -C "$SCRIPTS" rev-parse --show-toplevel)"

usage() {
  cat <<'EOF'
usage: switchboard-bench/scripts/compare-builds.sh BASE_REV [HEAD_REV|--worktree] [--rounds N] [--gc G]
                                                   [--scratch DIR] [harness options...]

Builds BASE_REV and HEAD (HEAD_REV, or by default --worktree: this working tree as it is, uncommitted changes
included) each in its own directory under the scratch directory (git worktree add --detach; the working tree is
copied), then runs, for each round, the benchmark harness of each build in a JVM of its own on the same
benchmarks: BASE then HEAD in odd rounds, HEAD then BASE in even ones. Each run writes the harness's JSON; the
summary reads Switchboard's median time per benchmark from it (the reports of old harnesses too) and prints per
benchmark the median over the rounds of the ratio HEAD / BASE (a time ratio: below 1 = HEAD faster) and its range.

  --rounds N      rounds (default 8); each runs both builds once
  --gc G          the collector of every run: default (no flag: the JVM's own choice), g1, parallel or zgc
                  (default: default). The script passes the JVM flags itself, so builds whose harness has no
                  --gc compare the same way; the summary names the collector the JVM picked for these flags.
  --scratch DIR   where the builds, the logs and the reports go (default: a new directory under $TMPDIR or
                  /tmp); the builds' git worktrees are removed at the end, the logs and reports are kept
  -h, --help      this text

Every other argument goes to the harness of both builds as it is, e.g. --quick, --only PingPong,Counting,
--workers 2, --iterations 9 (options both builds' harnesses know). The harness's --json is the script's;
--runs, --html, --list, --compare and --probe-latency do not go with it.

e.g. switchboard-bench/scripts/compare-builds.sh 42f9577 --only PingPong,Counting,ThreadRing,ForkJoinCreation \
       --rounds 16 --gc parallel
EOF
}

die() {
  echo "compare-builds: $*" >&2
  exit 2
}

[ $# -gt 0 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; -*) die "the first argument is the base revision, got '$1'" ;; esac
base_rev="$1"
shift
head_rev="--worktree"
if [ $# -gt 0 ] && { [ "$1" = "--worktree" ] || [ "${1#-}" = "$1" ]; }; then
  head_rev="$1"
  shift
fi
rounds=8
gc=default
scratch=""
harness=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --rounds) [ $# -ge 2 ] || die "--rounds needs a value"; rounds="$2"; shift 2 ;;
    --gc) [ $# -ge 2 ] || die "--gc needs a value"; gc="$2"; shift 2 ;;
    --scratch) [ $# -ge 2 ] || die "--scratch needs a value"; scratch="$2"; shift 2 ;;
    --json|--runs|--html|--list|--compare|--compare-workers|--probe-latency)
      die "$1 does not go with compare-builds (it runs the harness itself, one JVM per run, and reads its JSON)" ;;
    *) harness+=("$1"); shift ;;
  esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "--rounds takes a whole number >= 1, got '$rounds'"

# The JDK the launcher would use, and its feature version.
java_line="$("$ROOT/switchboard" java)"                      # "/usr/lib/jvm/... (JDK 25)"
JAVA_HOME="${java_line% (JDK *}"
JAVA_MAJOR="${java_line##*(JDK }"
JAVA_MAJOR="${JAVA_MAJOR%)}"
export JAVA_HOME
JAVA="$JAVA_HOME/bin/java"
# The collector's flags: the launcher's own gc_flags (./switchboard bench --gc), so both mean the same by each name.
eval "$(sed -n '/^gc_flags() {/,/^}/p' "$ROOT/switchboard")"
declare -F gc_flags >/dev/null || die "the launcher $ROOT/switchboard has no gc_flags function"
gc_flags "$gc" >/dev/null || exit 2
mapfile -t gc_args < <(gc_flags "$gc")
# As the launcher runs the harness: Pekko (Scala) uses sun.misc.Unsafe, which JDK 23+ warns about unless allowed.
jvm_args=(--enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g)
if [ "$JAVA_MAJOR" -ge 23 ]; then
  jvm_args=(--sun-misc-unsafe-memory-access=allow "${jvm_args[@]}")
fi
jvm_args+=(${gc_args[@]+"${gc_args[@]}"})

# The collector the JVM picks for these flags (with "default", its ergonomics decide).
collector="$("$JAVA" "${jvm_args[@]}" -XX:+PrintFlagsFinal -version 2>/dev/null \
  | sed -n 's/^ *bool Use\(Serial\|Parallel\|G1\|Z\|Shenandoah\|Epsilon\)GC *= true.*/\1/p' | paste -sd, -)"
collector="$gc (${gc_args[*]:-no flag}): the JVM runs ${collector:-an unknown collector}"

if [ -z "$scratch" ]; then
  scratch="$(mktemp -d "${TMPDIR:-/tmp}/compare-builds.XXXXXX")"
fi
mkdir -p "$scratch/results"
scratch="$(cd "$scratch" && pwd)"
added=()
cleanup() {
  local dir
  for dir in ${added[@]+"${added[@]}"}; do
    git -C "$ROOT" worktree remove --force "$dir" >/dev/null 2>&1 || true
  done
  git -C "$ROOT" worktree prune >/dev/null 2>&1 || true
}
trap cleanup EXIT

# checkout SIDE REV: the sources of REV (or of this working tree for --worktree) in $scratch/SIDE; sets labels[SIDE].
checkout() {
  local side="$1" rev="$2" dir="$scratch/$1" id
  rm -rf "$dir"
  if [ "$rev" = "--worktree" ]; then
    mkdir -p "$dir"
    # Tracked and untracked files, not the ignored ones (target/), without those deleted from the working tree.
    (cd "$ROOT" && git ls-files -z -co --exclude-standard \
      | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
      | tar -c --null -T - -f -) | tar -x -C "$dir" -f -
    id="$(git -C "$ROOT" rev-parse --short HEAD)"
    [ -z "$(git -C "$ROOT" status --porcelain)" ] || id="$id-dirty"
    labels[$side]="the working tree ($id)"
  else
    git -C "$ROOT" rev-parse --verify --quiet "$rev^{commit}" >/dev/null || die "no such revision: $rev"
    git -C "$ROOT" worktree add --detach "$dir" "$rev" >/dev/null 2>&1 || die "git worktree add $dir $rev failed"
    added+=("$dir")
    id="$(git -C "$dir" rev-parse --short HEAD)"
    labels[$side]="$rev ($id)"
  fi
  printf '%s' "${id}" > "$scratch/$side.commit"
}

# build SIDE: the harness's jar of that side (the benchmark module and what it needs, no tests).
build() {
  local side="$1"
  echo "building $side in $scratch/$side ..."
  if ! (cd "$scratch/$side" && ./mvnw -B -ntp -q -Dmaven.test.skip=true package -pl switchboard-bench -am \
        > "$scratch/build-$side.log" 2>&1); then
    tail -n 30 "$scratch/build-$side.log" >&2
    die "the build of $side failed (log: $scratch/build-$side.log)"
  fi
  [ -f "$scratch/$side/switchboard-bench/target/switchboard-bench.jar" ] || die "$side built no switchboard-bench.jar"
}

# run SIDE ROUND: that side's harness in its own JVM, its JSON into results/round-ROUND-SIDE.json.
run() {
  local side="$1" round="$2" started status=0
  local json="$scratch/results/round-$round-$side.json" log="$scratch/results/round-$round-$side.log"
  started=$SECONDS
  "$JAVA" "${jvm_args[@]}" "-Dswitchboard.commit=$(cat "$scratch/$side.commit")" \
    -cp "$scratch/$side/switchboard-bench/target/switchboard-bench.jar" dev.switchboard.bench.harness.Harness \
    ${harness[@]+"${harness[@]}"} --json "$json" > "$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    echo "  round $round $side: exit $status after $((SECONDS - started)) s; what it verified still counts" \
      "(log: $log)"
    tail -n 5 "$log" | sed 's/^/    /'
    [ -f "$json" ] || [ "$status" -ne 2 ] || die "the $side harness rejected its arguments (log: $log)"
  else
    echo "  round $round $side: $((SECONDS - started)) s"
  fi
}

declare -A labels
checkout base "$base_rev"
checkout head "$head_rev"
build base
build head
echo "$rounds rounds; collector $collector; harness arguments: ${harness[*]:-none}"
for ((round = 1; round <= rounds; round++)); do
  if ((round % 2 == 1)); then
    run base "$round"
    run head "$round"
  else
    run head "$round"
    run base "$round"
  fi
done
python3 "$SCRIPTS/compare_builds_summary.py" "$scratch/results" "$rounds" "${labels[base]}" "${labels[head]}" \
  "$collector"
echo
echo "reports and logs: $scratch/results"
