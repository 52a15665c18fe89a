package dev.switchboard.soak;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The soak: randomized {@link Round rounds} of actors, selectors, monitors, tasks, failures, exits and closes, one
 * after another for a chosen time, each checked by exact counts. Every round's seed is printed with any discrepancy
 * and replays that round's configuration and decisions ({@code --replay SEED}).
 *
 * <pre>
 * ./switchboard stress --soak 30m                 # 30 minutes from a random seed
 * ./switchboard stress --soak 10m --seed 1f2e3d   # the same sequence of rounds as an earlier run
 * ./switchboard stress --soak --replay 9c0ffee    # one round, from the seed a discrepancy printed
 * </pre>
 *
 * <p>Exits with status 1 if any round had a discrepancy.
 */
public final class Soak {
    /** What a soak did. */
    record Result(long seed, int rounds, Counters counters, List<String> discrepancies) {
        /** Operations: actors started, messages sent or refused, tasks run. */
        public long operations() {
            return counters.operations();
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "seed %x: %,d rounds, %,d operations (%s); %d discrepancies", seed,
                    rounds, operations(), counters, discrepancies.size());
        }
    }

    private Soak() {
    }

    /**
     * Runs rounds drawn from {@code seed} until {@code duration} has passed or {@code maxRounds} have run, printing
     * progress to {@code out} every {@code progressEvery} (null: never) and every discrepancy as it is found.
     */
    static Result run(long seed, Duration duration, int maxRounds, Duration progressEvery, PrintStream out) {
        Round.Mix seeds = new Round.Mix(seed);
        Counters total = new Counters();
        List<String> discrepancies = new ArrayList<>();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        long nextProgress = progressEvery == null ? Long.MAX_VALUE : start + progressEvery.toNanos();
        int rounds = 0;
        while (rounds < maxRounds && System.nanoTime() - end < 0) {
            Round round = new Round(seeds.next());
            round.run();
            round.counters.addTo(total);
            rounds++;
            for (String d : round.discrepancies) {
                String line = String.format("DISCREPANCY in %s: %s%n  replay: ./switchboard stress --soak --replay %x",
                        round, d, round.seed);
                discrepancies.add(line);
                out.println(line);
            }
            long now = System.nanoTime();
            if (now - nextProgress >= 0) {
                nextProgress = now + progressEvery.toNanos();
                out.printf(Locale.ROOT, "%s: %,d rounds, %,d operations, %d discrepancies%n",
                        Duration.ofNanos(now - start).withNanos(0), rounds, total.operations(), discrepancies.size());
            }
        }
        return new Result(seed, rounds, total, discrepancies);
    }

    /** Runs the one round {@code seed} names. */
    static Result replay(long seed, PrintStream out) {
        Round round = new Round(seed);
        out.println("replaying " + round);
        round.run();
        List<String> discrepancies = new ArrayList<>();
        for (String d : round.discrepancies) {
            discrepancies.add(d);
            out.println("DISCREPANCY: " + d);
        }
        return new Result(seed, 1, round.counters, discrepancies);
    }

    /** {@code [DURATION] [--seed HEX] [--rounds N] [--replay HEX]}; DURATION like 90s, 30m, 2h (default 1m). */
    public static void main(String[] args) {
        Duration duration = Duration.ofMinutes(1);
        long seed = ThreadLocalRandom.current().nextLong();
        int rounds = Integer.MAX_VALUE;
        Long replay = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seed" -> seed = Long.parseUnsignedLong(value(args, ++i), 16);
                case "--rounds" -> rounds = Integer.parseInt(value(args, ++i));
                case "--replay" -> replay = Long.parseUnsignedLong(value(args, ++i), 16);
                default -> duration = parseDuration(args[i]);
            }
        }
        PrintStream out = System.out;
        Result result;
        if (replay != null) {
            result = replay(replay, out);
        } else {
            out.printf(Locale.ROOT, "soak: seed %x, for %s (replay the sequence with --seed %x)%n", seed,
                    duration, seed);
            result = run(seed, duration, rounds, Duration.ofMinutes(1), out);
        }
        out.println(result);
        System.exit(result.discrepancies().isEmpty() ? 0 : 1);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    /** 90s, 30m, 2h, or an ISO-8601 duration (PT30M). */
    static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("pt")) {
                return Duration.parse(text);
            }
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            return switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> throw new IllegalArgumentException();
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (use 90s, 30m, 2h or PT30M)");
        }
    }
}
