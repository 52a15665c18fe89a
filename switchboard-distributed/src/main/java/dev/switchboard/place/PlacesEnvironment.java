package dev.switchboard.place;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The places of a program as an orchestrator describes them in each place's environment, so that a Kubernetes
 * StatefulSet or a Slurm job starts a program with no launcher of ours ({@link Places.Builder#fromEnvironment}).
 * {@code SWITCHBOARD_ENVIRONMENT} says which:
 *
 * <ul>
 *   <li><b>{@code kubernetes}</b>: a StatefulSet of {@code SWITCHBOARD_PLACES} replicas behind the headless service
 *       {@code SWITCHBOARD_SERVICE}. A pod's {@code HOSTNAME} is the set's name and its ordinal ({@code prog-2}):
 *       the ordinal is the place's index, the pod's name the place's name, and place {@code i} is reached at the
 *       stable DNS name {@code <set>-<i>.<service>} on {@code SWITCHBOARD_PORT} (default
 *       {@value #DEFAULT_PORT}).</li>
 *   <li><b>{@code slurm}</b>: the tasks of a job step ({@code srun}): {@code SLURM_PROCID} is the index,
 *       {@code SLURM_NTASKS} the number of places, {@code SLURM_JOB_NODELIST} (or {@code SLURM_STEP_NODELIST}) and
 *       {@code SLURM_TASKS_PER_NODE} where the tasks run (Slurm's block distribution: the first node's tasks first);
 *       the {@code k}-th task of a node listens on {@code SWITCHBOARD_PORT + k}. Places are named
 *       {@code task-<index>}.</li>
 * </ul>
 * The secret comes from the file {@code SWITCHBOARD_SECRET_FILE} names (a Kubernetes Secret mounted as a file, say);
 * {@code SWITCHBOARD_SECURITY=tls} with {@code SWITCHBOARD_KEY_STORE} and {@code SWITCHBOARD_TRUST_STORE} (and their
 * {@code _PASSWORD_FILE}s) uses mutual TLS instead. Every place binds its port on every interface; peers are
 * resolved when they are connected to (a pod's DNS name exists once it runs), and tried again until the bootstrap
 * timeout.
 */
final class PlacesEnvironment {
    /** The port of the first place on a host, unless {@code SWITCHBOARD_PORT} says another. */
    static final int DEFAULT_PORT = 7100;
    private static final Pattern ORDINAL = Pattern.compile("(.+)-(\\d+)");

    /** The places, and which one this process is. */
    record Launch(PlacesConfig config, PlacesConfig.Place self) {
    }

    private PlacesEnvironment() {
    }

    /**
     * The launch {@code env} describes.
     *
     * @throws PlacesConfigException naming the variable that is missing or wrong
     */
    static Launch read(Map<String, String> env) {
        String kind = required(env, "SWITCHBOARD_ENVIRONMENT").toLowerCase(Locale.ROOT);
        int port = number(env, "SWITCHBOARD_PORT", DEFAULT_PORT);
        List<PlacesConfig.Place> places = new ArrayList<>();
        int self;
        switch (kind) {
            case "kubernetes" -> {
                String host = required(env, "HOSTNAME");
                Matcher m = ORDINAL.matcher(host);
                if (!m.matches()) {
                    throw new PlacesConfigException("HOSTNAME is " + host + ", not the name of a StatefulSet's pod"
                            + " (<set>-<ordinal>): is this place started by a StatefulSet?");
                }
                String set = m.group(1);
                self = Integer.parseInt(m.group(2));
                int count = number(env, "SWITCHBOARD_PLACES", -1);
                String service = required(env, "SWITCHBOARD_SERVICE");
                if (self >= count) {
                    throw new PlacesConfigException("this pod's ordinal is " + self + ", but SWITCHBOARD_PLACES is "
                            + count + ": give it the StatefulSet's replicas");
                }
                for (int i = 0; i < count; i++) {
                    places.add(new PlacesConfig.Place(i, set + "-" + i, set + "-" + i + "." + service, port));
                }
            }
            case "slurm" -> {
                self = number(env, "SLURM_PROCID", -1);
                int count = number(env, "SLURM_NTASKS", -1);
                String list = env.getOrDefault("SLURM_STEP_NODELIST", env.get("SLURM_JOB_NODELIST"));
                if (list == null || list.isBlank()) {
                    throw new PlacesConfigException("SLURM_JOB_NODELIST is not set: is this place a task of srun?");
                }
                List<String> nodes = expandHostList(list);
                List<Integer> perNode = expandTasksPerNode(required(env, "SLURM_TASKS_PER_NODE"), nodes.size());
                for (int n = 0, task = 0; n < nodes.size() && task < count; n++) {
                    for (int k = 0; k < perNode.get(n) && task < count; k++, task++) {
                        places.add(new PlacesConfig.Place(task, "task-" + task, nodes.get(n), port + k));
                    }
                }
                if (places.size() != count || self >= count) {
                    throw new PlacesConfigException("SLURM_NTASKS is " + count + " and SLURM_PROCID " + self + ", but"
                            + " the node list " + list + " with SLURM_TASKS_PER_NODE "
                            + env.get("SLURM_TASKS_PER_NODE") + " places " + places.size() + " tasks");
                }
            }
            default -> throw new PlacesConfigException("SWITCHBOARD_ENVIRONMENT is " + kind + ": kubernetes or slurm");
        }
        if (places.size() > GlobalId.MAX_PLACES) {
            throw new PlacesConfigException(places.size() + " places: at most " + GlobalId.MAX_PLACES);
        }
        PlacesSecurity security = security(env);
        return new Launch(PlacesConfig.of("the environment (" + kind + ")", places, security), places.get(self));
    }

    private static PlacesSecurity security(Map<String, String> env) {
        String mode = env.getOrDefault("SWITCHBOARD_SECURITY", "hmac");
        return switch (mode) {
            case "hmac" -> new PlacesSecurity(PlacesSecurity.Mode.HMAC, path(env, "SWITCHBOARD_SECRET_FILE"), null,
                    null, null, null);
            case "tls" -> new PlacesSecurity(PlacesSecurity.Mode.TLS, null,
                    java.nio.file.Path.of(required(env, "SWITCHBOARD_KEY_STORE")),
                    path(env, "SWITCHBOARD_KEY_STORE_PASSWORD_FILE"),
                    java.nio.file.Path.of(required(env, "SWITCHBOARD_TRUST_STORE")),
                    path(env, "SWITCHBOARD_TRUST_STORE_PASSWORD_FILE"));
            case "unauthenticated-insecure" -> new PlacesSecurity(PlacesSecurity.Mode.UNAUTHENTICATED_INSECURE, null,
                    null, null, null, null);
            default -> throw new PlacesConfigException("SWITCHBOARD_SECURITY is " + mode + ": hmac, tls or"
                    + " unauthenticated-insecure");
        };
    }

    private static java.nio.file.Path path(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : java.nio.file.Path.of(v.trim());
    }

    private static String required(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new PlacesConfigException(name + " is not set in this place's environment");
        }
        return v.trim();
    }

    private static int number(Map<String, String> env, String name, int otherwise) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            if (otherwise < 0) {
                throw new PlacesConfigException(name + " is not set in this place's environment");
            }
            return otherwise;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new PlacesConfigException(name + " is " + v + ", not a number of 0 or more");
        }
    }

    /**
     * Slurm's compressed host list, expanded: {@code node[01-03,07],gpu5} is node01, node02, node03, node07, gpu5
     * (zero padding kept; one bracket per name, as Slurm writes them).
     */
    static List<String> expandHostList(String list) {
        List<String> hosts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= list.length(); i++) {
            char c = i < list.length() ? list.charAt(i) : ',';
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                expandOne(list.substring(start, i).trim(), hosts, list);
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new PlacesConfigException("the Slurm node list " + list + " has an unclosed [");
        }
        return hosts;
    }

    private static void expandOne(String item, List<String> hosts, String list) {
        if (item.isEmpty()) {
            return;
        }
        int open = item.indexOf('[');
        if (open < 0) {
            hosts.add(item);
            return;
        }
        int close = item.indexOf(']', open);
        if (close < 0) {
            throw new PlacesConfigException("the Slurm node list " + list + " has an unclosed [ in " + item);
        }
        String prefix = item.substring(0, open);
        String suffix = item.substring(close + 1);
        for (String range : item.substring(open + 1, close).split(",")) {
            String[] ends = range.split("-", 2);
            try {
                int from = Integer.parseInt(ends[0]);
                int to = ends.length == 2 ? Integer.parseInt(ends[1]) : from;
                int width = ends[0].length();
                for (int n = from; n <= to; n++) {
                    hosts.add(prefix + String.format(Locale.ROOT, "%0" + width + "d", n) + suffix);
                }
            } catch (NumberFormatException e) {
                throw new PlacesConfigException("the Slurm node list " + list + " has a range that is not numbers: "
                        + range);
            }
        }
    }

    /** {@code SLURM_TASKS_PER_NODE}, expanded: {@code 2(x3),1} is 2, 2, 2, 1. */
    static List<Integer> expandTasksPerNode(String spec, int nodes) {
        List<Integer> counts = new ArrayList<>();
        for (String part : spec.split(",")) {
            Matcher m = Pattern.compile("(\\d+)(?:\\(x(\\d+)\\))?").matcher(part.trim());
            if (!m.matches()) {
                throw new PlacesConfigException("SLURM_TASKS_PER_NODE is " + spec + ": not n or n(xk), comma-separated");
            }
            int n = Integer.parseInt(m.group(1));
            int times = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            for (int i = 0; i < times; i++) {
                counts.add(n);
            }
        }
        if (counts.size() != nodes) {
            throw new PlacesConfigException("SLURM_TASKS_PER_NODE " + spec + " counts tasks on " + counts.size()
                    + " nodes; the node list has " + nodes);
        }
        return counts;
    }
}
