package dev.switchboard.place;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where the places of a program run and how: the HOCON file of [DistSelectors] (Fig. 8), read with Typesafe Config,
 * with what a deployment needs besides.
 *
 * <pre>
 * selectorSystem {
 *   init   { place: p0, hostname: "10.0.0.1", port: 5000 }     # the master place
 *   remote: [
 *     { place: p1, hostname: "10.0.0.2", port: 5000 },
 *     { place: p2, hostname: "10.0.0.2", port: 5002 },          # two places on one host: two ports
 *     { place: p3, hostname: "203.0.113.9", port: 5000, bind: "0.0.0.0" }    # reached there, listens here
 *   ]
 *   workers: 4                           # worker threads per place (default: the place's processors)
 *   jvmOptions: ["-Xmx2g"]               # for the place JVMs a launcher starts (default: none)
 *   messages: ["com.example.Ping", "com.example.Pong"]          # the classes messages may carry
 *   security { secretFile: "/run/secrets/switchboard" }        # how places prove they belong ({@link PlacesSecurity})
 *   limits { maxFrameBytes: 16777216 }                         # what a frame may cost ({@link DecodingLimits})
 *   failureTimeout: 10s                  # a place silent this long is declared failed
 *   bootstrapTimeout: 60s                # how long the places may take to start and connect
 *   ssh { user: "alice" }                # place 0 starts the others over SSH ({@link SshSettings})
 * }
 * </pre>
 *
 * The places are numbered in the file's order, the master ({@code init}) 0, the {@code remote} ones from 1: that
 * index is the one a {@link GlobalId} carries. {@link #load} checks everything it can before anything starts and
 * throws a {@link PlacesConfigException} naming the file, the line, the key and the problem: the file missing or
 * not HOCON, {@code selectorSystem}, {@code init} or a place's {@code place}, {@code hostname} or {@code port}
 * missing or of the wrong type, a key it does not know (a misspelt {@code remotes} would otherwise be ignored), a
 * place name used twice, two places on one address and port, a host name that does not resolve, a port outside
 * 1–65535, more places than ids can name, a message class that cannot be loaded.
 */
public final class PlacesConfig {
    /**
     * One place: its index (the master 0, then the {@code remote} list's order), its name, where the others reach it
     * ({@code hostname}, {@code port}), and where it listens: the same, unless its {@code bind} says otherwise (a
     * place behind a proxy or a NAT, or one that listens on every interface: {@code bind: "0.0.0.0"}).
     */
    public record Place(int index, String name, String hostname, int port, String bindHostname, int bindPort) {
        /** A place that listens where the others reach it. */
        public Place(int index, String name, String hostname, int port) {
            this(index, name, hostname, port, hostname, port);
        }

        /** {@code name (hostname:port)}. */
        @Override
        public String toString() {
            return name + " (" + hostname + ":" + port + ")";
        }
    }

    private static final String ROOT = "selectorSystem";
    private static final Set<String> ROOT_KEYS = Set.of("init", "remote", "workers", "jvmOptions", "messages",
            "security", "limits", "failureTimeout", "bootstrapTimeout", "ssh");
    private static final Set<String> SSH_KEYS = Set.of("user", "port", "identityFiles", "agentSocket", "knownHosts",
            "java", "directory", "connectTimeout", "keepAlive");
    private static final Set<String> SECURITY_KEYS = Set.of("mode", "secretFile", "keyStore", "keyStorePasswordFile",
            "trustStore", "trustStorePasswordFile");
    private static final Set<String> LIMIT_KEYS = Set.of("maxFrameBytes", "maxDecodedBytes", "maxElements",
            "maxStringLength", "maxDepth");
    private static final Set<String> PLACE_KEYS = Set.of("place", "hostname", "port", "bind");
    private static final Pattern BIND = Pattern.compile("\\[([^\\]]+)](?::(\\d{1,5}))?|([^:\\[\\]]+)(?::(\\d{1,5}))?");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    private final String origin;
    private final List<Place> places;
    private final int workers;
    private final List<String> jvmOptions;
    private final List<String> messageClasses;
    private final PlacesSecurity security;
    private final DecodingLimits limits;
    private final java.time.Duration failureTimeout;
    private final java.time.Duration bootstrapTimeout;
    private final SshSettings ssh;

    private PlacesConfig(String origin, List<Place> places, int workers, List<String> jvmOptions,
                         List<String> messageClasses, PlacesSecurity security, DecodingLimits limits,
                         java.time.Duration failureTimeout, java.time.Duration bootstrapTimeout,
                         SshSettings ssh) {
        this.origin = origin;
        this.bootstrapTimeout = bootstrapTimeout;
        this.ssh = ssh;
        this.failureTimeout = failureTimeout;
        this.security = security;
        this.limits = limits;
        this.places = List.copyOf(places);
        this.workers = workers;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.messageClasses = List.copyOf(messageClasses);
    }

    /**
     * Reads and checks {@code file}; message classes are loaded (not initialized) with this class's loader.
     *
     * @throws PlacesConfigException if the file is missing or unreadable or the configuration is not usable
     */
    public static PlacesConfig load(Path file) {
        return load(file, PlacesConfig.class.getClassLoader());
    }

    /**
     * Reads and checks {@code file}, loading the message classes with {@code classes}.
     *
     * @throws PlacesConfigException if the file is missing or unreadable or the configuration is not usable
     */
    public static PlacesConfig load(Path file, ClassLoader classes) {
        Objects.requireNonNull(file, "file");
        String name = file.toString();
        if (!Files.isRegularFile(file)) {
            throw new PlacesConfigException(name + ": no such file (the places' configuration, [DistSelectors] Fig. 8:"
                    + " selectorSystem { init { place, hostname, port }, remote: [ ... ] })");
        }
        Config config;
        try {
            config = ConfigFactory.parseFile(file.toFile(),
                    ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false)).resolve();
        } catch (ConfigException e) {
            throw new PlacesConfigException(name + ": not a readable HOCON file: " + e.getMessage(), e);
        }
        return check(config, name, classes, file.toAbsolutePath().getParent());
    }

    /** Places described elsewhere (an orchestrator's environment), with the defaults for the rest. */
    static PlacesConfig of(String origin, List<Place> places, PlacesSecurity security) {
        return new PlacesConfig(origin, places, 0, List.of(), List.of(), security, DecodingLimits.DEFAULTS,
                Places.Builder.DEFAULT_FAILURE_TIMEOUT, Places.Builder.DEFAULT_BOOTSTRAP_TIMEOUT, null);
    }

    /**
     * Reads and checks {@code hocon}, text in the format above; {@code origin} names it in errors.
     *
     * @throws PlacesConfigException if the text is not HOCON or the configuration is not usable
     */
    public static PlacesConfig parse(String hocon, String origin, ClassLoader classes) {
        Config config;
        try {
            config = ConfigFactory.parseString(hocon, ConfigParseOptions.defaults().setOriginDescription(origin)
                    .setSyntax(ConfigSyntax.CONF)).resolve();
        } catch (ConfigException e) {
            throw new PlacesConfigException(origin + ": not HOCON: " + e.getMessage(), e);
        }
        return check(config, origin, classes, Path.of("").toAbsolutePath());
    }

    private static PlacesConfig check(Config config, String origin, ClassLoader classes, Path dir) {
        if (!config.hasPath(ROOT)) {
            throw new PlacesConfigException(origin + ": " + ROOT + " is missing ([DistSelectors] Fig. 8: " + ROOT
                    + " { init { place, hostname, port }, remote: [ ... ] })");
        }
        Config root = object(config, ROOT, ROOT, origin);
        unknownKeys(root, ROOT_KEYS, ROOT, origin);
        List<Place> places = new ArrayList<>();
        Map<String, String> keyOfName = new HashMap<>();
        Map<String, String> keyOfAddress = new HashMap<>();
        if (!root.hasPath("init")) {
            throw new PlacesConfigException(at(root, origin) + ROOT + ".init is missing: the master place"
                    + " { place, hostname, port }");
        }
        places.add(place(object(root, "init", ROOT + ".init", origin), 0, ROOT + ".init", origin, keyOfName,
                keyOfAddress));
        if (root.hasPath("remote")) {
            List<? extends Config> remote;
            try {
                remote = root.getConfigList("remote");
            } catch (ConfigException.WrongType e) {
                throw new PlacesConfigException(at(root.getValue("remote"), origin) + ROOT + ".remote: a list of places"
                        + " [ { place, hostname, port }, ... ], got " + kindOf(root.getValue("remote")), e);
            }
            for (int i = 0; i < remote.size(); i++) {
                if (places.size() == GlobalId.MAX_PLACES) {
                    throw new PlacesConfigException(at(remote.get(i), origin) + ROOT + ".remote[" + i + "]: more than "
                            + GlobalId.MAX_PLACES + " places (the most a global id can name)");
                }
                places.add(place(remote.get(i), i + 1, ROOT + ".remote[" + i + "]", origin, keyOfName,
                        keyOfAddress));
            }
        }
        int workers = 0;
        if (root.hasPath("workers")) {
            workers = integer(root, "workers", ROOT + ".workers", origin);
            if (workers < 1 || workers > Short.MAX_VALUE) {
                throw new PlacesConfigException(at(root, origin) + ROOT + ".workers: worker threads per place are"
                        + " 1 to " + Short.MAX_VALUE + ", not " + workers);
            }
        }
        List<String> jvmOptions = strings(root, "jvmOptions", origin);
        List<String> messages = strings(root, "messages", origin);
        for (int i = 0; i < messages.size(); i++) {
            try {
                Class.forName(messages.get(i), false, classes);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new PlacesConfigException(at(root.getList("messages").get(i), origin) + ROOT + ".messages["
                        + i + "]: no class "
                        + messages.get(i) + " on the class path (every message class must be on the class path of"
                        + " every place)", e);
            }
        }
        java.time.Duration failureTimeout = Places.Builder.DEFAULT_FAILURE_TIMEOUT;
        if (root.hasPath("failureTimeout")) {
            try {
                failureTimeout = root.getDuration("failureTimeout");
            } catch (ConfigException e) {
                throw new PlacesConfigException(at(root.getValue("failureTimeout"), origin) + ROOT + ".failureTimeout:"
                        + " a duration (10s, 1500ms), got '" + root.getValue("failureTimeout").unwrapped() + "'", e);
            }
            if (failureTimeout.toMillis() < 100) {
                throw new PlacesConfigException(at(root.getValue("failureTimeout"), origin) + ROOT + ".failureTimeout:"
                        + " at least 100 ms, not " + failureTimeout);
            }
        }
        return new PlacesConfig(origin, places, workers, jvmOptions, messages, security(root, origin, dir),
                limits(root, origin), failureTimeout,
                duration(root, "bootstrapTimeout", Places.Builder.DEFAULT_BOOTSTRAP_TIMEOUT, ROOT, origin),
                ssh(root, origin, dir));
    }

    /** The {@code ssh} section ({@link SshSettings}), or null without one. */
    private static SshSettings ssh(Config root, String origin, Path dir) {
        if (!root.hasPath("ssh")) {
            return null;
        }
        String key = ROOT + ".ssh";
        Config c = object(root, "ssh", key, origin);
        unknownKeys(c, SSH_KEYS, key, origin);
        Path home = Path.of(System.getProperty("user.home"));
        String user = c.hasPath("user") ? string(c, "user", key + ".user", origin) : System.getProperty("user.name");
        int port = c.hasPath("port") ? integer(c, "port", key + ".port", origin) : 22;
        if (port < 1 || port > 65_535) {
            throw new PlacesConfigException(at(c, origin) + key + ".port: a port is 1 to 65535, not " + port);
        }
        List<Path> identities = new ArrayList<>();
        if (c.hasPath("identityFiles")) {
            List<String> files = strings(c, "identityFiles", origin);
            for (int i = 0; i < files.size(); i++) {
                Path f = local(files.get(i), home, dir);
                if (!Files.isRegularFile(f)) {
                    throw new PlacesConfigException(at(c.getValue("identityFiles"), origin) + key + ".identityFiles["
                            + i + "]: no such file " + f);
                }
                identities.add(f);
            }
        } else {
            for (String f : List.of("id_ed25519", "id_ecdsa", "id_rsa")) {
                Path p = home.resolve(".ssh").resolve(f);
                if (Files.isRegularFile(p)) {
                    identities.add(p);
                }
            }
        }
        String socket = c.hasPath("agentSocket") ? c.getString("agentSocket").trim()      // "": no agent
                : System.getenv("SSH_AUTH_SOCK");
        Path agent = socket == null || socket.isBlank() ? null : local(socket, home, dir);
        if (identities.isEmpty() && agent == null) {
            throw new PlacesConfigException(at(c, origin) + key + ": no key to log in with: no agent (SSH_AUTH_SOCK"
                    + " is not set, nor " + key + ".agentSocket) and no identityFiles (nor ~/.ssh/id_ed25519,"
                    + " id_ecdsa or id_rsa)");
        }
        Path knownHosts = c.hasPath("knownHosts") ? local(string(c, "knownHosts", key + ".knownHosts", origin), home,
                dir) : home.resolve(".ssh").resolve("known_hosts");
        java.time.Duration connectTimeout = duration(c, "connectTimeout", java.time.Duration.ofSeconds(10), key,
                origin);
        java.time.Duration keepAlive = duration(c, "keepAlive", java.time.Duration.ofSeconds(15), key, origin);
        String directory = c.hasPath("directory") ? string(c, "directory", key + ".directory", origin)
                : ".switchboard/staging";
        return new SshSettings(user, port, identities, agent, knownHosts,
                c.hasPath("java") ? string(c, "java", key + ".java", origin) : "java",
                directory.startsWith("~/") ? directory.substring(2) : directory, connectTimeout, keepAlive);
    }

    /** A positive duration at {@code name} in {@code c}, or {@code otherwise}. */
    private static java.time.Duration duration(Config c, String name, java.time.Duration otherwise, String key,
                                               String origin) {
        if (!c.hasPath(name)) {
            return otherwise;
        }
        try {
            java.time.Duration d = c.getDuration(name);
            if (!d.isNegative() && !d.isZero()) {
                return d;
            }
        } catch (ConfigException e) {
            throw new PlacesConfigException(at(c.getValue(name), origin) + key + "." + name + ": a duration (10s,"
                    + " 1500ms), got '" + c.getValue(name).unwrapped() + "'", e);
        }
        throw new PlacesConfigException(at(c.getValue(name), origin) + key + "." + name + ": a positive duration,"
                + " got '" + c.getValue(name).unwrapped() + "'");
    }

    /** A path on this host: {@code ~/} is the home directory; a relative one is the configuration's directory's. */
    private static Path local(String path, Path home, Path dir) {
        return path.equals("~") ? home : path.startsWith("~/") ? home.resolve(path.substring(2)) : dir.resolve(path);
    }

    /** The {@code security} section; without one, HMAC (with the secret file the environment names, at launch). */
    private static PlacesSecurity security(Config root, String origin, Path dir) {
        String key = ROOT + ".security";
        Config c = root.hasPath("security") ? object(root, "security", key, origin) : null;
        if (c != null) {
            unknownKeys(c, SECURITY_KEYS, key, origin);
        }
        String modeName = c != null && c.hasPath("mode") ? string(c, "mode", key + ".mode", origin) : "hmac";
        PlacesSecurity.Mode mode = null;
        for (PlacesSecurity.Mode m : PlacesSecurity.Mode.values()) {
            if (m.key().equals(modeName)) {
                mode = m;
            }
        }
        Object where = c != null ? c : root;
        if (mode == null) {
            throw new PlacesConfigException(at(where, origin) + key + ".mode: hmac, tls or unauthenticated-insecure,"
                    + " not '" + modeName + "'");
        }
        Path secret = path(c, "secretFile", key, origin, dir);
        Path keyStore = path(c, "keyStore", key, origin, dir);
        Path trustStore = path(c, "trustStore", key, origin, dir);
        if (mode == PlacesSecurity.Mode.TLS && (keyStore == null || trustStore == null)) {
            throw new PlacesConfigException(at(where, origin) + key + ": mode tls needs keyStore (this place's key and"
                    + " certificate, PKCS#12; {place} in the path is replaced by the place's name) and trustStore");
        }
        return new PlacesSecurity(mode, secret, keyStore, path(c, "keyStorePasswordFile", key, origin, dir),
                trustStore, path(c, "trustStorePasswordFile", key, origin, dir));
    }

    private static Path path(Config c, String name, String key, String origin, Path dir) {
        return c == null || !c.hasPath(name) ? null : dir.resolve(string(c, name, key + "." + name, origin));
    }

    /** The {@code limits} section: {@link DecodingLimits}, each key optional. */
    private static DecodingLimits limits(Config root, String origin) {
        DecodingLimits d = DecodingLimits.DEFAULTS;
        if (!root.hasPath("limits")) {
            return d;
        }
        String key = ROOT + ".limits";
        Config c = object(root, "limits", key, origin);
        unknownKeys(c, LIMIT_KEYS, key, origin);
        try {
            return new DecodingLimits(
                    c.hasPath("maxFrameBytes") ? integer(c, "maxFrameBytes", key + ".maxFrameBytes", origin) : d.maxFrameBytes(),
                    c.hasPath("maxDecodedBytes") ? c.getBytes("maxDecodedBytes") : d.maxDecodedBytes(),
                    c.hasPath("maxElements") ? integer(c, "maxElements", key + ".maxElements", origin) : d.maxElements(),
                    c.hasPath("maxStringLength") ? integer(c, "maxStringLength", key + ".maxStringLength", origin) : d.maxStringLength(),
                    c.hasPath("maxDepth") ? integer(c, "maxDepth", key + ".maxDepth", origin) : d.maxDepth());
        } catch (IllegalArgumentException | ConfigException e) {
            throw new PlacesConfigException(at(c, origin) + key + ": " + e.getMessage(), e);
        }
    }

    private static Place place(Config c, int index, String key, String origin, Map<String, String> keyOfName,
                               Map<String, String> keyOfAddress) {
        unknownKeys(c, PLACE_KEYS, key, origin);
        String name = string(c, "place", key + ".place", origin);
        if (!NAME.matcher(name).matches()) {
            throw new PlacesConfigException(at(c, origin) + key + ".place: a place name is letters, digits and"
                    + " _ . -, not '" + name + "'");
        }
        String other = keyOfName.putIfAbsent(name, key);
        if (other != null) {
            throw new PlacesConfigException(at(c, origin) + key + ".place: " + name + " is also the name of the"
                    + " place at " + other);
        }
        String hostname = string(c, "hostname", key + ".hostname", origin);
        int port = integer(c, "port", key + ".port", origin);
        if (port < 1 || port > 65_535) {
            throw new PlacesConfigException(at(c, origin) + key + ".port: a port is 1 to 65535, not " + port);
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(hostname);
        } catch (UnknownHostException e) {
            throw new PlacesConfigException(at(c, origin) + key + ".hostname: " + hostname + " does not resolve"
                    + " to an address (" + e.getMessage() + ")", e);
        }
        String where = address.getHostAddress() + ":" + port;
        other = keyOfAddress.putIfAbsent(where, key);
        if (other != null) {
            throw new PlacesConfigException(at(c, origin) + key + ": " + hostname + ":" + port + " (" + where
                    + ") is also the address of the place at " + other + "; places on one host need ports of their"
                    + " own");
        }
        if (!c.hasPath("bind")) {
            return new Place(index, name, hostname, port);
        }
        String bind = string(c, "bind", key + ".bind", origin);
        java.util.regex.Matcher m = BIND.matcher(bind);
        if (!m.matches()) {
            throw new PlacesConfigException(at(c, origin) + key + ".bind: where the place listens, host or host:port"
                    + " (0.0.0.0:7100, [::]:7100), not '" + bind + "'");
        }
        String bindHost = m.group(1) != null ? m.group(1) : m.group(3);
        String bindPort = m.group(1) != null ? m.group(2) : m.group(4);
        int listen = bindPort == null ? port : Integer.parseInt(bindPort);
        if (listen < 1 || listen > 65_535) {
            throw new PlacesConfigException(at(c, origin) + key + ".bind: a port is 1 to 65535, not " + listen);
        }
        return new Place(index, name, hostname, port, bindHost, listen);
    }

    private static void unknownKeys(Config c, Set<String> known, String key, String origin) {
        for (String k : c.root().keySet()) {
            if (!known.contains(k)) {
                throw new PlacesConfigException(at(c.getValue(quoted(k)), origin) + key + "." + k + ": unknown key"
                        + " (known: " + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }

    private static Config object(Config c, String path, String key, String origin) {
        try {
            return c.getConfig(path);
        } catch (ConfigException.WrongType e) {
            throw new PlacesConfigException(at(c.getValue(path), origin) + key + ": an object { ... }, got "
                    + c.getValue(path).valueType().name().toLowerCase(Locale.ROOT), e);
        }
    }

    private static String string(Config c, String path, String key, String origin) {
        if (!c.hasPath(path)) {
            throw new PlacesConfigException(at(c, origin) + key + " is missing");
        }
        ConfigValue v = c.getValue(path);
        if (v.valueType() != ConfigValueType.STRING) {
            throw new PlacesConfigException(at(v, origin) + key + ": a string, got "
                    + v.valueType().name().toLowerCase(Locale.ROOT));
        }
        String s = c.getString(path).trim();
        if (s.isEmpty()) {
            throw new PlacesConfigException(at(v, origin) + key + " is empty");
        }
        return s;
    }

    /** "object", "number", or for a list "a list of string: ["p1"]": what a value is, for an error. */
    private static String kindOf(com.typesafe.config.ConfigValue v) {
        String type = v.valueType().name().toLowerCase(Locale.ROOT);
        if (v instanceof com.typesafe.config.ConfigList list && !list.isEmpty()) {
            return "a list of " + list.get(0).valueType().name().toLowerCase(Locale.ROOT) + ": "
                    + v.render(com.typesafe.config.ConfigRenderOptions.concise());
        }
        return type;
    }

    private static int integer(Config c, String path, String key, String origin) {
        if (!c.hasPath(path)) {
            throw new PlacesConfigException(at(c, origin) + key + " is missing");
        }
        Object value = c.getValue(path).unwrapped();
        if (value instanceof Double || value instanceof Float) {      // getInt would drop the fraction
            throw new PlacesConfigException(at(c.getValue(path), origin) + key + ": a whole number, got '" + value
                    + "'");
        }
        try {
            return c.getInt(path);
        } catch (ConfigException.WrongType e) {
            throw new PlacesConfigException(at(c.getValue(path), origin) + key + ": a whole number, got '"
                    + c.getValue(path).unwrapped() + "'", e);
        }
    }

    private static List<String> strings(Config c, String path, String origin) {
        if (!c.hasPath(path)) {
            return List.of();
        }
        try {
            return c.getStringList(path);
        } catch (ConfigException.WrongType e) {
            throw new PlacesConfigException(at(c.getValue(path), origin) + ROOT + "." + path + ": a list of"
                    + " strings [\"...\", ...]: " + e.getMessage(), e);
        }
    }

    /** "file:line: " for a value or object, "file: " where the line is not known. */
    private static String at(Object where, String origin) {
        int line = switch (where) {
            case Config c -> c.origin().lineNumber();
            case ConfigValue v -> v.origin().lineNumber();
            default -> -1;
        };
        return line > 0 ? origin + ":" + line + ": " : origin + ": ";
    }

    private static String quoted(String key) {
        return "\"" + key.replace("\"", "\\\"") + "\"";
    }

    /** The file (or description) this configuration was read from. */
    public String origin() {
        return origin;
    }

    /** Every place, the master first, in index order. */
    public List<Place> places() {
        return places;
    }

    /** The master place, index 0 ({@code init}). */
    public Place master() {
        return places.get(0);
    }

    /**
     * The place called {@code name}.
     *
     * @throws IllegalArgumentException if there is none, naming the places there are
     */
    public Place place(String name) {
        return places.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("no place " + name + " in " + origin + " (its places: "
                        + places.stream().map(Place::name).toList() + ")"));
    }

    /** Worker threads per place, or 0 for the place's available processors (no {@code workers} key). */
    public int workers() {
        return workers;
    }

    /** Options for the JVMs a launcher starts for the places; empty if none are given. */
    public List<String> jvmOptions() {
        return jvmOptions;
    }

    /** How the places prove to each other that they belong to the program. */
    public PlacesSecurity security() {
        return security;
    }

    /** What a frame from another place may make a place read and allocate. */
    public DecodingLimits limits() {
        return limits;
    }

    /** How long a place may send nothing before the others declare it failed (default 10 s). */
    public java.time.Duration failureTimeout() {
        return failureTimeout;
    }

    /**
     * How long the places may take to start and connect (default 60 s): each place waits this long for the others,
     * and place 0 of an SSH launch gives its hosts this long to be prepared.
     */
    public java.time.Duration bootstrapTimeout() {
        return bootstrapTimeout;
    }

    /**
     * How place 0 starts the other places on their hosts ({@link SshSettings}), or null if the configuration has
     * no {@code ssh} section (each place is then started by some other means with the file and its name).
     */
    public SshSettings ssh() {
        return ssh;
    }

    /** The names of the classes messages between places may carry, each loadable. */
    public List<String> messageClasses() {
        return messageClasses;
    }
}
