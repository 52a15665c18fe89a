package dev.switchboard.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The places an orchestrator's environment describes: a Kubernetes StatefulSet's pods behind a headless service, a
 * Slurm job step's tasks on its nodes (Slurm's compressed node lists and task counts expanded); every missing or
 * wrong variable named.
 */
class PlacesEnvironmentTest {
    @Test
    void aStatefulSetsPodIsThePlaceOfItsOrdinalAndReachesTheOthersByTheirStableNames() {
        PlacesEnvironment.Launch l = PlacesEnvironment.read(Map.of("SWITCHBOARD_ENVIRONMENT", "kubernetes",
                "HOSTNAME", "orders-2", "SWITCHBOARD_PLACES", "3", "SWITCHBOARD_SERVICE", "orders-places",
                "SWITCHBOARD_SECRET_FILE", "/var/run/secrets/switchboard/secret"));
        assertThat(l.self()).isEqualTo(new PlacesConfig.Place(2, "orders-2", "orders-2.orders-places", 7100));
        assertThat(l.config().places()).extracting(PlacesConfig.Place::toString).containsExactly(
                "orders-0 (orders-0.orders-places:7100)", "orders-1 (orders-1.orders-places:7100)",
                "orders-2 (orders-2.orders-places:7100)");
        assertThat(l.config().security()).isEqualTo(new PlacesSecurity(PlacesSecurity.Mode.HMAC,
                Path.of("/var/run/secrets/switchboard/secret"), null, null, null, null));
        assertThat(PlacesEnvironment.read(Map.of("SWITCHBOARD_ENVIRONMENT", "Kubernetes", "HOSTNAME", "a-b-0",
                "SWITCHBOARD_PLACES", "1", "SWITCHBOARD_SERVICE", "svc", "SWITCHBOARD_PORT", "9000",
                "SWITCHBOARD_SECURITY", "tls", "SWITCHBOARD_KEY_STORE", "/certs/{place}.p12",
                "SWITCHBOARD_TRUST_STORE", "/certs/trust.p12")).self())
                .isEqualTo(new PlacesConfig.Place(0, "a-b-0", "a-b-0.svc", 9000));
    }

    @Test
    void whatIsMissingOrWrongInAKubernetesEnvironmentIsNamed() {
        assertThatThrownBy(() -> PlacesEnvironment.read(Map.of("SWITCHBOARD_ENVIRONMENT", "kubernetes",
                "HOSTNAME", "orders", "SWITCHBOARD_PLACES", "3", "SWITCHBOARD_SERVICE", "s")))
                .isInstanceOf(PlacesConfigException.class).hasMessage("HOSTNAME is orders, not the name of a"
                        + " StatefulSet's pod (<set>-<ordinal>): is this place started by a StatefulSet?");
        assertThatThrownBy(() -> PlacesEnvironment.read(Map.of("SWITCHBOARD_ENVIRONMENT", "kubernetes",
                "HOSTNAME", "orders-3", "SWITCHBOARD_PLACES", "3", "SWITCHBOARD_SERVICE", "s")))
                .hasMessage("this pod's ordinal is 3, but SWITCHBOARD_PLACES is 3: give it the StatefulSet's"
                        + " replicas");
        assertThatThrownBy(() -> PlacesEnvironment.read(Map.of("SWITCHBOARD_ENVIRONMENT", "kubernetes",
                "HOSTNAME", "orders-0", "SWITCHBOARD_PLACES", "three", "SWITCHBOARD_SERVICE", "s")))
                .hasMessage("SWITCHBOARD_PLACES is three, not a number of 0 or more");
        assertThatThrownBy(() -> PlacesEnvironment.read(Map.of("SWITCHBOARD_ENVIRONMENT", "kubernetes",
                "HOSTNAME", "orders-0", "SWITCHBOARD_PLACES", "3")))
                .hasMessage("SWITCHBOARD_SERVICE is not set in this place's environment");
        assertThatThrownBy(() -> PlacesEnvironment.read(Map.of("SWITCHBOARD_ENVIRONMENT", "nomad")))
                .hasMessage("SWITCHBOARD_ENVIRONMENT is nomad: kubernetes or slurm");
        assertThatThrownBy(() -> PlacesEnvironment.read(Map.of("SWITCHBOARD_ENVIRONMENT", "kubernetes",
                "HOSTNAME", "orders-0", "SWITCHBOARD_PLACES", "1", "SWITCHBOARD_SERVICE", "s",
                "SWITCHBOARD_SECURITY", "tls"))).hasMessage("SWITCHBOARD_KEY_STORE is not set in this place's"
                        + " environment");
    }

    @Test
    void slurmsCompressedNodeListsAndTaskCountsExpand() {
        assertThat(PlacesEnvironment.expandHostList("node[01-03,07],gpu5,big[9-10]")).containsExactly("node01",
                "node02", "node03", "node07", "gpu5", "big9", "big10");
        assertThat(PlacesEnvironment.expandHostList("c1")).containsExactly("c1");
        assertThat(PlacesEnvironment.expandTasksPerNode("2(x3),1", 4)).containsExactly(2, 2, 2, 1);
        assertThatThrownBy(() -> PlacesEnvironment.expandHostList("node[01-03")).hasMessageContaining("unclosed [");
        assertThatThrownBy(() -> PlacesEnvironment.expandTasksPerNode("2(x2)", 3))
                .hasMessage("SLURM_TASKS_PER_NODE 2(x2) counts tasks on 2 nodes; the node list has 3");
    }

    @Test
    void aSlurmTaskIsThePlaceOfItsRankAndTasksOfANodeTakeConsecutivePorts() {
        Map<String, String> env = Map.of("SWITCHBOARD_ENVIRONMENT", "slurm", "SLURM_PROCID", "3", "SLURM_NTASKS",
                "5", "SLURM_JOB_NODELIST", "node[01-02],gpu5", "SLURM_TASKS_PER_NODE", "2(x2),1",
                "SWITCHBOARD_SECRET_FILE", "/home/me/.switchboard/secret");
        PlacesEnvironment.Launch l = PlacesEnvironment.read(env);
        assertThat(l.config().places()).extracting(PlacesConfig.Place::toString).containsExactly(
                "task-0 (node01:7100)", "task-1 (node01:7101)", "task-2 (node02:7100)", "task-3 (node02:7101)",
                "task-4 (gpu5:7100)");
        assertThat(l.self().name()).isEqualTo("task-3");
        assertThatThrownBy(() -> PlacesEnvironment.read(Map.of("SWITCHBOARD_ENVIRONMENT", "slurm", "SLURM_PROCID",
                "0", "SLURM_NTASKS", "4", "SLURM_JOB_NODELIST", "n[1-2]", "SLURM_TASKS_PER_NODE", "1(x2)")))
                .hasMessage("SLURM_NTASKS is 4 and SLURM_PROCID 0, but the node list n[1-2] with"
                        + " SLURM_TASKS_PER_NODE 1(x2) places 2 tasks");
        assertThatThrownBy(() -> PlacesEnvironment.read(Map.of("SWITCHBOARD_ENVIRONMENT", "slurm", "SLURM_PROCID",
                "0", "SLURM_NTASKS", "1"))).hasMessage("SLURM_JOB_NODELIST is not set: is this place a task of"
                        + " srun?");
        assertThat(List.of(l.self().port())).containsExactly(7101);
    }
}
