package dev.fakbattery.report.gate;

import java.util.ArrayList;
import java.util.List;

/**
 * The battery summary: rung, verdict, artifact path, headline figure or pending reason.
 *
 * @since 0.1
 */
public final class SummaryTable {

	private static final String[] HEADER = { "rung", "verdict", "artifact", "headline / reason" };

	private SummaryTable() {
	}

	public static String console(List<GateRow> rows) {
		List<String[]> lines = new ArrayList<>();
		lines.add(HEADER);
		rows.forEach(row -> lines.add(cells(row)));
		int[] width = new int[HEADER.length];
		for (String[] line : lines) {
			for (int i = 0; i < line.length; i++) {
				width[i] = Math.max(width[i], line[i].length());
			}
		}
		StringBuilder out = new StringBuilder();
		for (int n = 0; n < lines.size(); n++) {
			String[] line = lines.get(n);
			for (int i = 0; i < line.length; i++) {
				out.append(i == line.length - 1 ? line[i] : pad(line[i], width[i] + 2));
			}
			out.append('\n');
			if (n == 0) {
				out.append("-".repeat(Math.min(160, width[0] + width[1] + width[2] + 6 + width[3]))).append('\n');
			}
		}
		return out.toString();
	}

	public static String markdown(List<GateRow> rows) {
		StringBuilder md = new StringBuilder("| rung | verdict | artifact | headline / reason |\n|---|---|---|---|\n");
		for (GateRow row : rows) {
			String[] c = cells(row);
			md.append("| ")
					.append(c[0])
					.append(" | ")
					.append(c[1])
					.append(" | `")
					.append(c[2])
					.append("` | ")
					.append(c[3].replace("|", "\\|"))
					.append(" |\n");
		}
		return md.toString();
	}

	private static String[] cells(GateRow row) {
		return new String[]{ row.artifact().rung(), row.verdict() + (row.passed() && row.isPreProduced() ? " (pre-produced)" : ""),
			row.path(), row.detail() };
	}

	private static String pad(String text, int width) {
		return text + " ".repeat(Math.max(0, width - text.length()));
	}
}
