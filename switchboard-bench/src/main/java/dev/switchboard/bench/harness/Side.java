package dev.switchboard.bench.harness;

/**
 * A side of a comparison: Switchboard, or a peer its Switchboard side is measured against.
 *
 * <p>Pekko runs in two configurations of its default dispatcher, both on a fork-join executor with the harness's
 * worker count ({@link PekkoSettings}): {@link #PEKKO_DEFAULT}, Pekko's defaults in everything else (throughput 5),
 * which is what Pekko users run and therefore the headline; and {@link #PEKKO_MATCHED}, whose throughput is
 * Switchboard's budget. Task-parallel benchmarks are measured against {@link #FORK_JOIN_POOL}.
 */
public enum Side {
    SWITCHBOARD("switchboard", "Switchboard"),
    PEKKO_DEFAULT("default", "Pekko default"),
    PEKKO_MATCHED("matched", "Pekko matched"),
    FORK_JOIN_POOL("fork_join_pool", "ForkJoinPool");

    private final String key;
    private final String label;

    Side(String key, String label) {
        this.key = key;
        this.label = label;
    }

    /** The side's name in JSON and on the command line ({@code --peer-config default|matched}). */
    public String key() {
        return key;
    }

    /** The side's name in tables and on the HTML page. */
    public String label() {
        return label;
    }

    /** The side whose {@link #key()} is {@code key}. */
    public static Side ofKey(String key) {
        for (Side side : values()) {
            if (side.key.equals(key)) {
                return side;
            }
        }
        throw new IllegalArgumentException("unknown side '" + key + "'");
    }

    /** Whether this side is one of Pekko's configurations. */
    public boolean isPekko() {
        return this == PEKKO_DEFAULT || this == PEKKO_MATCHED;
    }
}
