package dev.fakbattery.bench.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import org.knowm.xchart.XYChart;

/**
 * The numbers of a comparison that carry a 95 % interval in either run (the tax and sweep ratios), base and head
 * side by side per number, with their intervals.
 *
 * @since 0.3
 */
public final class ComparePlot {

	private ComparePlot() {
	}

	/** Draws the plot into {@code target}; empty when no number of either run has an interval. */
	public static Optional<Path> draw(RunComparison comparison, Path target) {
		List<RunComparison.Row> rows = comparison.rows().stream()
			.filter(r -> r.base() != null && r.base().ci() != null || r.head() != null && r.head().ci() != null).toList();
		if (rows.isEmpty()) {
			return Optional.empty();
		}
		XYChart chart = CiChart.chart("Run " + comparison.base().runId() + " (base) vs " + comparison.head().runId() + " (head), 95% CI",
				"number", "value", slot -> slot >= 1 && slot <= rows.size() ? rows.get(slot - 1).key() : "");
		side(chart, "base " + comparison.base().runId(), 0, rows.stream().map(RunComparison.Row::base).toList(), -0.12);
		side(chart, "head " + comparison.head().runId(), 1, rows.stream().map(RunComparison.Row::head).toList(), 0.12);
		CiChart.parity(chart, 0.5, rows.size() + 0.5);
		return Optional.of(CiChart.write(chart, target));
	}

	private static void side(XYChart chart, String name, int color, List<Reading> readings, double offset) {
		int[] present = IntStream.range(0, readings.size()).filter(i -> readings.get(i) != null).toArray();
		if (present.length > 0) {
			CiChart.series(chart, name, CiChart.PALETTE.get(color), IntStream.of(present).mapToDouble(i -> i + 1 + offset).toArray(),
					IntStream.of(present).mapToObj(readings::get).toList());
		}
	}
}
