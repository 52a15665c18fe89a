#!/usr/bin/env bash
# Compares two builds of Switchboard on the same benchmarks: builds each in a scratch directory, then runs the
# harness of each in its own JVM, round after round, the order flipped every round (or, with --one-jvm, both builds
# in each of several JVMs, taking turns), and prints per benchmark the median and range of the ratios HEAD / BASE
# of Switchboard's median time. Run with --help.
set -euo pipefail

SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(git -C "$SCRIPTS" rev-parse --show-toplevel)"

usage() {
  cat <<'EOF'
usage: switchboard-bench/scripts/compare-builds.sh BASE_REV [HEAD_REV|--worktree] [--rounds N] [--gc G]
                                                   [--scratch DIR] [harness options...]
       switchboard-bench/scripts/compare-builds.sh BASE_REV [HEAD_REV|--worktree] --one-jvm JVMS --only B,...
                                                   [--rounds N] [--workers N] [--gc G] [--scratch DIR]

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
  --one-jvm JVMS  instead of a JVM per run: JVMS JVMs, each running both builds' jars, each in a class loader
                  of its own with a runtime of its own, on the benchmarks --only names, taking turns for
                  --rounds rounds (default 60; the median over the last two thirds), the build loaded first
                  swapped from one JVM to the next (BuildsInOneJvm). Both builds then meet the same minutes of a
                  shared machine, which separate JVMs do not; what a JVM's load order leaves is the spread, so use
                  an even JVMS (4 or more), and an A/A run (BASE_REV given twice) shows it. Takes --only and
                  --workers (default 2) of the harness options, no other.
  -h, --help      this text

Every other argument goes to the harness of both builds as it is, e.g. --quick, --only PingPong,Counting,
--workers 2, --iterations 9 (options both builds' harnesses know). The harness's --json is the script's;
--runs, --html, --list, --compare and --probe-latency do not go with it.

e.g. switchboard-bench/scripts/compare-builds.sh 42f9577 --only PingPong,Counting,ThreadRing,ForkJoinCreation \
       --rounds 16 --gc parallel
     switchboard-bench/scripts/compare-builds.sh 42f9577 --one-jvm 4 --only PingPong,ThreadRing,Big --gc default
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
rounds=""
gc=default
scratch=""
one_jvm=""
only=""
workers=2
harness=()
others=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --rounds) [ $# -ge 2 ] || die "--rounds needs a value"; rounds="$2"; shift 2 ;;
    --one-jvm) [ $# -ge 2 ] || die "--one-jvm needs a number of JVMs"; one_jvm="$2"; shift 2 ;;
    --only) [ $# -ge 2 ] || die "--only needs a list of benchmarks"; only="$2"; harness+=("$1" "$2"); shift 2 ;;
    --workers) [ $# -ge 2 ] || die "--workers needs a value"; workers="$2"; harness+=("$1" "$2"); shift 2 ;;
    --gc) [ $# -ge 2 ] || die "--gc needs a value"; gc="$2"; shift 2 ;;
    --scratch) [ $# -ge 2 ] || die "--scratch needs a value"; scratch="$2"; shift 2 ;;
    --json|--runs|--html|--list|--compare|--compare-workers|--probe-latency)
      die "$1 does not go with compare-builds (it runs the harness itself, one JVM per run, and reads its JSON)" ;;
    *) harness+=("$1"); others+=("$1"); shift ;;
  esac
done
if [ -n "$one_jvm" ]; then
  [[ "$one_jvm" =~ ^[1-9][0-9]*$ ]] || die "--one-jvm takes a whole number of JVMs >= 1, got '$one_jvm'"
  [ -n "$only" ] || die "--one-jvm needs --only: the benchmarks both builds run in each JVM"
  [[ "$workers" =~ ^[1-9][0-9]*$ ]] || die "--workers takes a whole number >= 1, got '$workers'"
  [ "${#others[@]}" -eq 0 ] || die "--one-jvm takes --only and --workers of the harness options, no other: ${others[*]}"
  rounds="${rounds:-60}"
  [[ "$rounds" =~ ^[1-9][0-9]*$ ]] && [ "$rounds" -ge 3 ] || die "--rounds takes a whole number >= 3 with --one-jvm, got '$rounds'"
else
  rounds="${rounds:-8}"
  [[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "--rounds takes a whole number >= 1, got '$rounds'"
fi

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

# one_jvm N: the Nth JVM of --one-jvm, both builds' jars in it (BuildsInOneJvm, run from its source file), the base
# loaded first in odd JVMs and the head in even ones; its table into results/jvm-N-(base|head)-first.txt.
one_jvm_run() {
  local n="$1" first=base second=head started status=0
  if ((n % 2 == 0)); then first=head; second=base; fi
  local out="$scratch/results/jvm-$n-$first-first.txt" log="$scratch/results/jvm-$n.log"
  started=$SECONDS
  "$JAVA" "${jvm_args[@]}" "$ROOT/switchboard-bench/src/main/java/dev/switchboard/bench/harness/BuildsInOneJvm.java" \
    "$scratch/$first/switchboard-bench/target/switchboard-bench.jar" \
    "$scratch/$second/switchboard-bench/target/switchboard-bench.jar" "$only" "$rounds" "$workers" \
    > "$out.tmp" 2> "$log" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "  JVM $n ($first first): exit $status after $((SECONDS - started)) s, left out (log: $log)"
    tail -n 5 "$log" | sed 's/^/    /'
    rm -f "$out.tmp"
  else
    mv "$out.tmp" "$out"
    echo "  JVM $n ($first first): $((SECONDS - started)) s"
  fi
}

declare -A labels
checkout base "$base_rev"
checkout head "$head_rev"
build base
build head
if [ -n "$one_jvm" ]; then
  echo "$one_jvm JVMs of $rounds rounds each, $workers workers; collector $collector; benchmarks: $only"
  for ((n = 1; n <= one_jvm; n++)); do
    one_jvm_run "$n"
    if [ "$n" -eq 1 ] && [ ! -f "$scratch/results/jvm-1-base-first.txt" ]; then
      die "the first JVM failed (log: $scratch/results/jvm-1.log): the others would fail the same way"
    fi
  done
  python3 "$SCRIPTS/compare_builds_summary.py" --one-jvm "$scratch/results" "$one_jvm" "${labels[base]}" \
    "${labels[head]}" "$collector"
  echo
  echo "tables and logs: $scratch/results"
  exit 0
fi
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
