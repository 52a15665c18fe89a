package dev.switchboard;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The floors of the core (docs/architecture.md, "Floors"), checked on the compiled classes: every dependency
 * points down or stays on its floor, and the floors form no circle. Fully qualified uses count as much as imports
 * (the check reads the class files); Javadoc links and strings do not.
 *
 * <pre>
 *   facade    dev.switchboard           (Switchboard: the static entry points)
 *   monitors  dev.switchboard.monitor
 *   actors    dev.switchboard.actor, dev.switchboard.spi
 *   tasks     dev.switchboard.task
 *   ground    dev.switchboard.internal
 * </pre>
 */
class FloorsTest {
    /** The floors, lowest first, and the packages on each. */
    static final Map<String, List<String>> FLOORS = new java.util.LinkedHashMap<>();

    static {
        FLOORS.put("ground", List.of("dev.switchboard.internal"));
        FLOORS.put("tasks", List.of("dev.switchboard.task"));
        FLOORS.put("actors", List.of("dev.switchboard.actor", "dev.switchboard.spi"));
        FLOORS.put("monitors", List.of("dev.switchboard.monitor"));
        FLOORS.put("facade", List.of("dev.switchboard"));
    }

    static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.switchboard");
        assertThat(core.stream().map(JavaClass::getPackageName).distinct())
                .as("the core's packages, each on a floor")
                .containsExactlyInAnyOrderElementsOf(FLOORS.values().stream().flatMap(List::stream).toList());
    }

    @Test
    void everyDependencyPointsDownOrStaysOnItsFloor() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("ground").definedBy("dev.switchboard.internal")
                .layer("tasks").definedBy("dev.switchboard.task")
                .layer("actors").definedBy("dev.switchboard.actor", "dev.switchboard.spi")
                .layer("monitors").definedBy("dev.switchboard.monitor")
                .layer("facade").definedBy("dev.switchboard")
                .whereLayer("facade").mayNotBeAccessedByAnyLayer()
                .whereLayer("monitors").mayOnlyBeAccessedByLayers("facade")
                .whereLayer("actors").mayOnlyBeAccessedByLayers("monitors", "facade")
                .whereLayer("tasks").mayOnlyBeAccessedByLayers("actors", "monitors", "facade")
                .whereLayer("ground").mayOnlyBeAccessedByLayers("tasks", "actors", "monitors", "facade")
                .because("a floor uses only the floors below it (docs/architecture.md, \"Floors\")")
                .check(core);
    }

    @Test
    void theFloorsFormNoCircle() {
        slices().assignedFrom(new com.tngtech.archunit.library.dependencies.SliceAssignment() {
            @Override
            public com.tngtech.archunit.library.dependencies.SliceIdentifier getIdentifierOf(JavaClass c) {
                return com.tngtech.archunit.library.dependencies.SliceIdentifier.of(floorOf(c.getPackageName()));
            }

            @Override
            public String getDescription() {
                return "the floors of the core";
            }
        }).should().beFreeOfCycles().check(core);
    }

    /**
     * The one pair of packages that share a floor and use each other: the seam's public interfaces
     * ({@code spi.DispatchPolicy}, {@code spi.RemoteRoute}, {@code spi.Seam}) name {@code ActorRef} and
     * {@code ActorCore}, and the actor package implements the dispatcher and message processing a policy sees.
     * Nothing else may join that circle: the ground and the tasks floor stay out of it.
     */
    @Test
    void onlyTheActorFloorHoldsTwoPackagesThatUseEachOther() {
        Map<String, TreeSet<String>> uses = packageGraph();
        List<String> mutual = new java.util.ArrayList<>();
        for (var e : uses.entrySet()) {
            for (String to : e.getValue()) {
                if (e.getKey().compareTo(to) < 0 && uses.getOrDefault(to, new TreeSet<>()).contains(e.getKey())) {
                    mutual.add(e.getKey() + " <-> " + to);
                }
            }
        }
        assertThat(mutual).containsExactly("dev.switchboard.actor <-> dev.switchboard.spi");
    }

    /** Prints the package graph by floor, with the count of dependencies that run back up (always 0 here). */
    @Test
    void drawTheFloors() {
        Map<String, TreeSet<String>> uses = packageGraph();
        int up = 0;
        StringBuilder picture = new StringBuilder("The core's floors, top first (package: the packages it uses)\n");
        List<String> names = List.copyOf(FLOORS.keySet());
        for (int f = names.size() - 1; f >= 0; f--) {
            picture.append(String.format("  %-9s", names.get(f)));
            for (String p : FLOORS.get(names.get(f))) {
                picture.append(' ').append(shortName(p)).append(" -> ")
                        .append(uses.getOrDefault(p, new TreeSet<>()).stream().map(FloorsTest::shortName).toList());
                for (String to : uses.getOrDefault(p, new TreeSet<>())) {
                    if (names.indexOf(floorOf(to)) > f) {
                        up++;
                    }
                }
            }
            picture.append('\n');
        }
        picture.append("dependencies that run back up: ").append(up);
        System.out.println(picture);
        assertThat(up).isZero();
    }

    private static Map<String, TreeSet<String>> packageGraph() {
        Map<String, TreeSet<String>> uses = new TreeMap<>();
        for (JavaClass c : core) {
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String from = c.getPackageName();
                String to = d.getTargetClass().getPackageName();
                if (!from.equals(to) && to.startsWith("dev.switchboard")) {
                    uses.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
                }
            }
        }
        return uses;
    }

    private static String floorOf(String pkg) {
        return FLOORS.entrySet().stream().filter(e -> e.getValue().contains(pkg)).map(Map.Entry::getKey)
                .findFirst().orElse("outside the core: " + pkg);
    }

    private static String shortName(String pkg) {
        return pkg.equals("dev.switchboard") ? "(root)" : pkg.substring("dev.switchboard.".length());
    }
}
