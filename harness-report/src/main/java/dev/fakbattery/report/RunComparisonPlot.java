package dev.fakbattery.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.knowm.xchart.XYChart;

/**
 * The numbers of a comparison that carry a 95 % interval in both runs (the tax and sweep ratios): one line per
 * number from base to head, each end with its interval, so a move larger than the intervals shows at a glance.
 *
 * @since 0.3
 */
public final class RunComparisonPlot {

	private RunComparisonPlot() {
	}

	/** Draws the plot into {@code target}; empty when no number has an interval in both runs. */
	public static Optional<Path> draw(RunComparison comparison, Path target) {
		List<RunComparison.Row> rows = comparison.rows()
				.stream()
				.filter(r -> r.base() != null && r.base().ci() != null && r.head() != null && r.head().ci() != null)
				.toList();
		if (rows.isEmpty()) {
			return Optional.empty();
		}
		XYChart chart = CiChart.chart("Base vs head, numbers with a 95% CI", "run", "value");
		List<Reading> all = new ArrayList<>();
		for (int i = 0; i < rows.size(); i++) {
			RunComparison.Row row = rows.get(i);
			double offset = (i - (rows.size() - 1) / 2.0) * 0.03;
			CiChart.series(chart, row.key() + " (CIs overlap: " + row.overlap() + ")", CiChart.PALETTE.get(i % CiChart.PALETTE.size()),
					new double[]{ 1 + offset, 2 + offset }, List.of(row.base(), row.head()));
			all.add(row.base());
			all.add(row.head());
		}
		CiChart.slots(chart, List.of("base " + comparison.base().runId(), "head " + comparison.head().runId()), all);
		return Optional.of(CiChart.write(chart, target));
	}
}
