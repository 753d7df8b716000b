package dev.fakbattery.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The comparison as text: a console table (aligned columns) and the same as Markdown.
 *
 * @since 0.3
 */
public final class ComparisonTable {

	static final String[] NUMBERS = { "number", "unit", "base", "head", "change", "CIs overlap" };
	static final String[] VERDICTS = { "rung", "base verdict", "head verdict" };

	private ComparisonTable() {
	}

	public static String console(RunComparison comparison) {
		StringBuilder out = new StringBuilder(heading(comparison)).append('\n');
		out.append(aligned(NUMBERS, numberRows(comparison))).append('\n').append(aligned(VERDICTS, comparison.verdicts()));
		return out.toString();
	}

	public static String markdown(RunComparison comparison) {
		StringBuilder md = new StringBuilder("# Run comparison\n\n").append(heading(comparison).replace("\n", "\n\n")).append("\n\n");
		md.append(markdownTable(NUMBERS, numberRows(comparison))).append('\n').append(markdownTable(VERDICTS, comparison.verdicts()));
		md.append("\nCIs overlap: `yes` when both 95 % intervals share a point (the change is within the runs' noise), `no` when "
				+ "they are disjoint, `no CI` when a run has no interval for the number, `one run only` when the other run "
				+ "did not measure it.\n");
		return md.toString();
	}

	private static String heading(RunComparison c) {
		String text = "base run " + c.base().runId() + " (" + c.base().startedAt() + ", battery " + c.base().battery() + "): "
				+ c.base().target()
				+ "\nhead run " + c.head().runId() + " (" + c.head().startedAt() + ", battery " + c.head().battery() + "): "
				+ c.head().target();
		if (!c.sameTarget()) {
			text += "\ntargets differ: the numbers are not like for like";
		}
		for (RunSnapshot run : List.of(c.base(), c.head())) {
			if (!run.otherRuns().isEmpty()) {
				text += "\nleft out of run " + run.runId() + " (artifacts of other runs in its folder): " + run.otherRuns();
			}
		}
		return text;
	}

	private static List<String[]> numberRows(RunComparison comparison) {
		List<String[]> rows = new ArrayList<>();
		for (RunComparison.Row row : comparison.rows()) {
			rows.add(new String[]{ row.key(), row.unit(), row.base() == null ? "-" : row.base().describe(),
				row.head() == null ? "-" : row.head().describe(), row.change(), row.overlap().toString() });
		}
		return rows;
	}

	private static String aligned(String[] header, List<String[]> rows) {
		List<String[]> lines = new ArrayList<>();
		lines.add(header);
		lines.addAll(rows);
		int[] width = new int[header.length];
		lines.forEach(line -> {
			for (int i = 0; i < line.length; i++) {
				width[i] = Math.max(width[i], line[i].length());
			}
		});
		StringBuilder out = new StringBuilder();
		for (int n = 0; n < lines.size(); n++) {
			String[] line = lines.get(n);
			for (int i = 0; i < line.length; i++) {
				out.append(i == line.length - 1 ? line[i] : line[i] + " ".repeat(width[i] - line[i].length() + 2));
			}
			out.append('\n');
			if (n == 0) {
				out.append("-".repeat(java.util.Arrays.stream(width).sum() + 2 * (width.length - 1))).append('\n');
			}
		}
		return out.toString();
	}

	private static String markdownTable(String[] header, List<String[]> rows) {
		StringBuilder md = new StringBuilder("| ").append(String.join(" | ", header))
				.append(" |\n|")
				.append("---|".repeat(header.length))
				.append('\n');
		rows.forEach(row -> md.append("| ")
				.append(String.join(" | ", java.util.Arrays.stream(row).map(c -> c.replace("|", "\\|")).toList()))
				.append(" |\n"));
		return md.toString();
	}
}
