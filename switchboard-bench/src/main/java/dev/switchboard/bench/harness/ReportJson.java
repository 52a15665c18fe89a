package dev.switchboard.bench.harness;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * Owns the shape of the JSON reports: one record per object of the file, mapped by Jackson ({@link ReportMapper}:
 * components in snake_case, in the order declared). {@link JsonReport} fills them from results and reads them
 * back; its Javadoc shows the whole file.
 */
final class ReportJson {
    private ReportJson() {
    }

    /** The {@code run} section: when, which commit, with which arguments. */
    record Run(String started, String finished, String commit, List<String> arguments) {
    }

    /** A report of one run of the harness. */
    record Report(Run run, Map<String, Object> machine, Map<String, Object> config,
                  Map<String, Double> geometricMeans, List<ResultJson> results) {
    }

    /** One side's wall times in one run. */
    record StatsJson(double median, double min, double max, double[] samplesMs) {
    }

    /** One benchmark in one run. */
    record ResultJson(String name, String description, Map<String, Object> params, String peer, String headline,
                      int iterations, StatsJson switchboardMs, Map<String, StatsJson> peerMs, Double ratio,
                      Map<String, Double> ratios,
                      @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Integer> threadsAdded,
                      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<SeriesJson> series, boolean verified,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String failure) {
    }

    /** What a benchmark recorded over time ({@link Series}). */
    record SeriesJson(String title, int periodMs, List<Series.Line> lines) {
    }

    /** The merged report of several runs ({@code --runs N}). */
    record RunsReport(Run run, Map<String, Object> machine, Map<String, Object> config,
                      Map<String, Double> geometricMeans, Map<String, SpreadJson> geometricMeanSpreads,
                      List<RowJson> results) {
    }

    /** One side over the runs: the median of the runs' medians, and each run's. */
    record RunMedians(double median, double[] runMedians) {
    }

    /** A figure over the runs ({@link Runs.Spread}). */
    record SpreadJson(double median, double min, double max, double[] perRun) {
    }

    /** One benchmark over the runs. */
    record RowJson(String name, String description, Map<String, Object> params, String peer, String headline,
                   int runs, RunMedians switchboardMs, Map<String, RunMedians> peerMs, Double ratio,
                   Map<String, Double> ratios, Map<String, SpreadJson> ratioSpreads,
                   @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Integer> threadsAdded,
                   @JsonInclude(JsonInclude.Include.NON_EMPTY) List<SeriesJson> series, boolean verified,
                   @JsonInclude(JsonInclude.Include.NON_NULL) String failure) {
    }

    /** The probe-latency tool's report. */
    record ProbeReport(Map<String, Object> machine, Map<String, Object> config, List<ProbeRow> results) {
    }

    /** One chain count of the probe-latency tool. */
    record ProbeRow(int chains, int sent, int warmupServed, int served, int starved, boolean abandoned,
                    int chainsRunning, double medianUs, double p90Us, double p99Us, double maxUs,
                    double[] samplesUs, String problem) {
    }
}
