package dev.fakbattery.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import org.knowm.xchart.XYChart;

/**
 * The tax and sweep ratios of every indexed run ({@code 3 tax}: latency_tax, decode_tps_tax; {@code 3 tax sweep}:
 * ratio_cN), each with its 95 % interval, one slot per run numbered as in the run index and in Allure's Trend
 * ({@code #1} the oldest).
 *
 * @since 0.3
 */
public final class RatiosPlot {

	private RatiosPlot() {
	}

	/** Whether a number is drawn: the tax ratios and the per-level sweep ratios. */
	static boolean drawn(Reading reading) {
		return reading.rung().equals("3 tax") && (reading.name().equals("latency_tax") || reading.name().equals("decode_tps_tax"))
				|| reading.rung().equals("3 tax sweep") && reading.name().matches("ratio_c\\d+");
	}

	/** Draws the plot into {@code target}; empty when no run has a ratio to draw. */
	public static Optional<Path> draw(List<RunSnapshot> runs, Path target) {
		Map<String, List<Double>> slots = new LinkedHashMap<>();
		Map<String, List<Reading>> readings = new LinkedHashMap<>();
		for (int i = 0; i < runs.size(); i++) {
			for (Reading reading : runs.get(i).readings()) {
				if (drawn(reading)) {
					slots.computeIfAbsent(reading.key(), k -> new ArrayList<>()).add(i + 1.0);
					readings.computeIfAbsent(reading.key(), k -> new ArrayList<>()).add(reading);
				}
			}
		}
		if (readings.isEmpty()) {
			return Optional.empty();
		}
		boolean simulated = runs.stream().anyMatch(r -> r.target().contains("engine double"));
		XYChart chart = CiChart.chart("Tax and sweep ratios across runs (95% CI)" + (simulated ? ", SIMULATED runs: engine double" : ""),
				"run #" + " (runs.json order, as in Trend): #1 " + runs.get(0).runId() + " ... #" + runs.size() + " "
						+ runs.get(runs.size() - 1).runId(),
				"ratio (gateway/raw; 1 = no tax)");
		int n = 0;
		for (Map.Entry<String, List<Reading>> series : readings.entrySet()) {
			double offset = (n - (readings.size() - 1) / 2.0) * 0.05;
			double[] x = slots.get(series.getKey()).stream().mapToDouble(s -> s + offset).toArray();
			CiChart.series(chart, series.getKey(), CiChart.PALETTE.get(n % CiChart.PALETTE.size()), x, series.getValue());
			n++;
		}
		CiChart.slots(chart, IntStream.rangeClosed(1, runs.size()).mapToObj(i -> "#" + i).toList(),
				readings.values().stream().flatMap(List::stream).toList());
		return Optional.of(CiChart.write(chart, target));
	}
}
