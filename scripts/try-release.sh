#!/usr/bin/env bash
# usage: scripts/try-release.sh [--working-tree] [--keep] [VERSION]
#
# Tries a release the way a new user meets it, outside the source tree:
#   1. takes the release's sources from git (its tag vX.Y.Z, or the commit "Release X.Y.Z") into a fresh
#      directory; with --working-tree, this checkout's files as they are, whatever their version;
#   2. installs them with the documented command (./switchboard install) into a fresh local Maven repository
#      (third-party jars are read from ~/.m2/repository, which is left untouched);
#   3. checks what was installed: each published module's jar, -sources and -javadoc jars, the BOM and the parent
#      pom, the version in each manifest, and nothing else (no test-jar, no examples or benchmarks);
#   4. creates a Maven project that depends on the release by the coordinates of the README's Maven block (the BOM
#      import, plus the two modules the block leaves to the reader), builds it, runs its JUnit test (the test kit),
#      and runs its program (actors, a transaction, two places) on the class path and then on the module path
#      split as the guide says.
# It prints the artifacts and ends with "release X.Y.Z works from a fresh project", or fails naming the step.
# VERSION defaults to the last release (pom.xml's switchboard.api.baseline); --keep keeps the directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tree=0 keep=0 version=""
while [ $# -gt 0 ]; do
  case "$1" in
    --working-tree) tree=1 ;;
    --keep) keep=1 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "try-release: unknown option $1" >&2; exit 2 ;;
    *) version="$1" ;;
  esac
  shift
done

JAVA_HOME="$("$ROOT/switchboard" java | cut -d' ' -f1)"
export JAVA_HOME
JAVA="$JAVA_HOME/bin/java"
java_major=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')

fail() { echo "try-release: $*" >&2; exit 1; }

if [ "$tree" = 1 ]; then
  commit="the working tree"
else
  [ -n "$version" ] || version=$(sed -n 's|.*<switchboard.api.baseline>\(.*\)</switchboard.api.baseline>.*|\1|p' \
    "$ROOT/pom.xml" | head -n 1)
  [ -n "$version" ] || fail "no release named (pom.xml's switchboard.api.baseline is empty): give a VERSION"
  if ! commit=$(git -C "$ROOT" rev-parse -q --verify "v$version^{commit}"); then
    commit=$(git -C "$ROOT" log -1 --format=%H --grep="^Release $version\$")
    [ -n "$commit" ] || fail "no tag v$version and no commit 'Release $version' in this checkout"
  fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/switchboard-try.XXXXXX")
if [ "$keep" = 1 ]; then
  echo "try-release: working in $work (kept)"
else
  trap 'rm -rf "$work"' EXIT
fi
repo="$work/repository"
maven_repos=(-Dmaven.repo.local="$repo" -Dmaven.repo.local.tail="$HOME/.m2/repository")

# 1-2. the release's sources, installed by the documented command
mkdir -p "$work/src"
if [ "$tree" = 1 ]; then
  (cd "$ROOT" && git ls-files -z -c -o --exclude-standard | tar --null -T - -c) | tar -x -C "$work/src"
else
  git -C "$ROOT" archive "$commit" | tar -x -C "$work/src"
fi
built=$(sed -n '0,/<version>/s|.*<version>\(.*\)</version>.*|\1|p' "$work/src/switchboard-bom/pom.xml")
[ -z "$version" ] || [ "$built" = "$version" ] || fail "commit ${commit:0:16} is version $built, not $version"
version="$built"
echo "try-release: installing $version (${commit:0:16}) with ./switchboard install"
(cd "$work/src" && ./switchboard install -q "${maven_repos[@]}") >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; fail "./switchboard install failed"; }

# 3. what was installed
group="$repo/dev/switchboard"
echo "try-release: the artifacts of $version"
for module in core testkit stm distributed; do
  for suffix in "" -sources -javadoc; do
    jar="$group/switchboard-$module/$version/switchboard-$module-$version$suffix.jar"
    [ -s "$jar" ] || fail "missing: ${jar#"$repo"/}"
    printf '  %-64s %9d bytes\n' "${jar##*/}" "$(stat -c %s "$jar")"
  done
  manifest=$(unzip -p "$group/switchboard-$module/$version/switchboard-$module-$version.jar" META-INF/MANIFEST.MF)
  grep -q "^Implementation-Version: $version" <<<"$manifest" \
    || fail "switchboard-$module's manifest has no Implementation-Version: $version"
done
for pom in bom parent; do
  file="$group/switchboard-$pom/$version/switchboard-$pom-$version.pom"
  [ -s "$file" ] || fail "missing: ${file#"$repo"/}"
  printf '  %-64s %9d bytes\n' "${file##*/}" "$(stat -c %s "$file")"
done
unexpected=$(find "$group" -name '*.jar' -o -name '*.pom' | grep -v -E \
  "/switchboard-(core|testkit|stm|distributed)-$version(-sources|-javadoc)?\.jar$|/switchboard-(core|testkit|stm|distributed|bom|parent)-$version\.pom$" \
  || true)
[ -z "$unexpected" ] || fail "installed but not to be published: $unexpected"

# 4. a user's project, by the README's coordinates
app="$work/app"
mkdir -p "$app/src/main/java/app" "$app/src/test/java/app"
block=$(awk '/<!-- dependency: maven -->/ {armed=1; next} armed && /^```xml/ {inside=1; next}
             inside && /^```/ {exit} inside {print}' "$work/src/README.md")
[ -n "$block" ] || fail "the README has no Maven block after <!-- dependency: maven -->"
if [ "$tree" = 1 ]; then   # the README names the last release: try this build by the same coordinates
  block=$(sed "0,/<version>[^<]*<\/version>/s//<version>$version<\/version>/" <<<"$block")
fi
grep -q "<version>$version</version>" <<<"$block" || fail "the README's Maven block does not name version $version"
others='  <dependency>
    <groupId>dev.switchboard</groupId>
    <artifactId>switchboard-stm</artifactId>
  </dependency>
  <dependency>
    <groupId>dev.switchboard</groupId>
    <artifactId>switchboard-distributed</artifactId>
  </dependency>
  <dependency>
    <groupId>org.junit.jupiter</groupId>
    <artifactId>junit-jupiter</artifactId>
    <version>5.14.4</version>
    <scope>test</scope>
  </dependency>
</dependencies>'
block="${block%</dependencies>}$others"
cat > "$app/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
<modelVersion>4.0.0</modelVersion>
<groupId>example</groupId>
<artifactId>app</artifactId>
<version>1</version>
<properties>
  <maven.compiler.release>21</maven.compiler.release>
  <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
</properties>
$block
<build>
  <plugins>
    <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
    <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
    <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.6</version></plugin>
    <plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.2</version></plugin>
    <plugin><artifactId>maven-dependency-plugin</artifactId><version>3.9.0</version></plugin>
  </plugins>
</build>
</project>
POM
cp "$ROOT/scripts/try-release/Main.java" "$app/src/main/java/app/"
cp "$ROOT/scripts/try-release/MainTest.java" "$app/src/test/java/app/"

echo "try-release: building a fresh project on dev.switchboard:switchboard-bom:$version"
"$ROOT/mvnw" -B -ntp -q -f "$app/pom.xml" "${maven_repos[@]}" package dependency:build-classpath \
  -Dmdep.outputFile="$app/classpath.txt" -DincludeScope=runtime >"$work/app.log" 2>&1 \
  || { cat "$work/app.log" >&2; fail "the fresh project does not build or its test fails"; }
grep -q "Tests run: 1, Failures: 0, Errors: 0" "$app"/target/surefire-reports/*.txt \
  || fail "the fresh project's test did not run"
grep -q "$repo/dev/switchboard/switchboard-core/$version/" "$app/classpath.txt" \
  || fail "the fresh project did not resolve switchboard-core $version from the fresh repository"

flags=()
[ "$java_major" -lt 24 ] || flags+=(--sun-misc-unsafe-memory-access=allow)
expected="rounds 101, audit 100, places 2"
out=$("$JAVA" "${flags[@]}" -cp "$app/target/classes:$(cat "$app/classpath.txt")" app.Main)
[ "$out" = "$expected" ] || fail "on the class path the program printed '$out', not '$expected'"
echo "try-release: on the class path: $out"

classpath_only='scala-stm|sshd-'
module_path=$(tr ':' '\n' <"$app/classpath.txt" | grep -v -E "$classpath_only" | paste -sd: -)
class_path=$(tr ':' '\n' <"$app/classpath.txt" | grep -E "$classpath_only" | paste -sd: -)
out=$("$JAVA" "${flags[@]}" --module-path "$module_path" --add-modules ALL-MODULE-PATH \
  -cp "$app/target/classes:$class_path" app.Main)
[ "$out" = "$expected" ] || fail "on the module path the program printed '$out', not '$expected'"
echo "try-release: on the module path (ScalaSTM and MINA SSHD on the class path): $out"
echo "try-release: release $version works from a fresh project"
