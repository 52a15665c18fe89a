package dev.switchboard.bench.txlist;

import dev.switchboard.bench.Suite;
import dev.switchboard.bench.harness.Benchmark;
import dev.switchboard.bench.harness.SeriesChart;
import dev.switchboard.task.TaskRuntime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The commits and rollbacks of the transactional list actors of {@link TxList} for every run, with each run's
 * wall time (Switchboard side only; every checksum checked), where the harness reports only those of the last
 * measured run of each variant ({@code --html}'s "Over time"). Not part of the harness run:
 *
 * <pre>
 * java -Xms2g -Xmx2g [-XX:+UseParallelGC] -cp switchboard-bench/target/switchboard-bench.jar \
 *     dev.switchboard.bench.txlist.TxListStats [--workers N] [--warmup N] [--runs N] [name,name,...]
 * </pre>
 *
 * Without names it runs every TxList variant, the {@code --compare} ones included. Prints per variant the median wall time and, per measured run, its
 * time, commits, rollbacks, read-only messages and the transactional threads of each list actor at the end. With
 * {@code --html FILE} it also writes a page that plots, per variant, the commits, the rollbacks and the
 * transactional threads of every period of its last run (throughput and rollbacks over time, as [TxActors]'s Figs.
 * 3–6), with the harness's charts.
 */
public final class TxListStats {
    private TxListStats() {
    }

    /** Each period's commits per rollback ("inf" without rollbacks), one decimal. */
    private static String perRollback(TxList.RunStats s) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < s.commitsPerPeriod().length; i++) {
            long r = s.rollbacksPerPeriod()[i];
            b.append(i == 0 ? "" : ", ").append(r == 0 ? "inf"
                    : String.format(Locale.ROOT, "%.1f", (double) s.commitsPerPeriod()[i] / r));
        }
        return b.append(']').toString();
    }

    public static void main(String[] args) throws Exception {
        int workers = Runtime.getRuntime().availableProcessors();
        int warmup = 3;
        int runs = 5;
        Set<String> names = null;
        String html = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--html" -> html = args[++i];
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                default -> names = Arrays.stream(args[i].split(",")).map(s -> s.toLowerCase(Locale.ROOT))
                        .collect(Collectors.toSet());
            }
        }
        List<TxList> chosen = new ArrayList<>();
        List<Benchmark> all = new ArrayList<>(Suite.all());
        all.addAll(Suite.compareVariants());
        for (Benchmark b : all) {
            if (b instanceof TxList t && (names == null || names.contains(b.name().toLowerCase(Locale.ROOT)))) {
                chosen.add(t);
            }
        }
        if (chosen.isEmpty()) {
            System.err.println("no TxList benchmark called " + names);
            System.exit(2);
        }
        System.out.printf("%d workers, %d warm-up and %d measured runs per variant%n", workers, warmup, runs);
        StringBuilder page = new StringBuilder("<!doctype html><meta charset='utf-8'><title>TxList over time</title>"
                + "<body style='font-family:sans-serif'><h1>TxList: commits and rollbacks per period of "
                + TxList.PERIOD_MS + " ms (last run of each variant)</h1>\n");
        try (TaskRuntime runtime = TaskRuntime.builder().name("switchboard").workers(workers).build()) {
            for (TxList b : chosen) {
                for (int i = 0; i < warmup; i++) {
                    check(b, b.runSwitchboard(runtime));
                }
                double[] ms = new double[runs];
                StringBuilder lines = new StringBuilder();
                for (int i = 0; i < runs; i++) {
                    long t0 = System.nanoTime();
                    long checksum = b.runSwitchboard(runtime);
                    ms[i] = (System.nanoTime() - t0) / 1e6;
                    check(b, checksum);
                    TxList.RunStats s = b.lastRun();
                    lines.append(String.format(Locale.ROOT, "    %9.1f ms  commits %8d  rollbacks %8d  read-only %6d"
                            + "  tx threads at the end %s%n", ms[i], s.commits(), s.rollbacks(), s.readOnly(),
                            Arrays.toString(s.transactionalThreads())));
                    if (s.threadsPerPeriod().length > 0) {
                        lines.append("      per period: tx threads ").append(Arrays.toString(s.threadsPerPeriod()))
                                .append(", commits per rollback ").append(perRollback(s)).append('\n');
                    }
                }
                double[] sorted = ms.clone();
                Arrays.sort(sorted);
                System.out.printf(Locale.ROOT, "%-30s median %9.1f ms%n%s", b.name(), sorted[runs / 2], lines);
                TxList.RunStats last = b.lastRun();
                if (!last.series().isEmpty()) {
                    page.append("<h2>").append(b.name()).append("</h2>\n");
                    last.series().forEach(series -> page.append(SeriesChart.render(series)));
                }
            }
        }
        if (html != null) {
            java.nio.file.Files.writeString(java.nio.file.Path.of(html), page.append("</body>\n"));
            System.out.println("wrote " + html);
        }
    }

    private static void check(Benchmark b, long checksum) {
        if (checksum != b.expected()) {
            throw new IllegalStateException(b.name() + " returned " + checksum + ", expected " + b.expected());
        }
    }
}
