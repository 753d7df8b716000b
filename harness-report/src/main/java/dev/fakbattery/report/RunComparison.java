package dev.fakbattery.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

/**
 * Two runs side by side: every headline number of either run (the {@code measurements[]} of each artifact) with
 * both values, the change, and whether their 95 % intervals overlap; and each rung's verdict in both.
 *
 * @since 0.3
 */
public record RunComparison(RunSnapshot base, RunSnapshot head, List<Row> rows) {

	/** Whether the two intervals of a number overlap. */
	public enum Overlap {
		/** Both runs have an interval and they share a point: the change is within the noise of the two runs. */
		YES("yes"),
		/** Both runs have an interval and they are disjoint: the change is larger than either run's noise. */
		NO("no"),
		/** At least one run has no interval for this number (a count, a single reading). */
		NO_CI("no CI"),
		/** Only one run has the number. */
		ONE_RUN("one run only");

		private final String text;

		Overlap(String text) {
			this.text = text;
		}

		@Override
		public String toString() {
			return text;
		}
	}

	/** One number in both runs; {@code base} or {@code head} is null when that run did not measure it. */
	public record Row(String key, String unit, Reading base, Reading head) {

		public Overlap overlap() {
			if (base == null || head == null) {
				return Overlap.ONE_RUN;
			}
			if (base.ci() == null || head.ci() == null) {
				return Overlap.NO_CI;
			}
			return base.ci().overlaps(head.ci()) ? Overlap.YES : Overlap.NO;
		}

		/** {@code +0.0005 (+0.05%)}, or {@code n/a} when a run lacks the number. */
		public String change() {
			if (base == null || head == null) {
				return "n/a";
			}
			double delta = head.value() - base.value();
			String relative = base.value() == 0 ? "" : String.format(Locale.ROOT, " (%+.2f%%)", 100 * delta / Math.abs(base.value()));
			return (delta >= 0 ? "+" : "-") + Reading.format(Math.abs(delta), unit) + relative;
		}
	}

	public static RunComparison of(RunSnapshot base, RunSnapshot head) {
		Map<String, Reading> baseByKey = byKey(base);
		Map<String, Reading> headByKey = byKey(head);
		Set<String> keys = new LinkedHashSet<>(baseByKey.keySet());
		keys.addAll(headByKey.keySet());
		List<Row> rows = new ArrayList<>();
		for (String key : keys) {
			Reading b = baseByKey.get(key);
			Reading h = headByKey.get(key);
			rows.add(new Row(key, (b != null ? b : h).unit(), b, h));
		}
		return new RunComparison(base, head, rows);
	}

	private static Map<String, Reading> byKey(RunSnapshot run) {
		Map<String, Reading> map = new LinkedHashMap<>();
		run.readings().forEach(r -> map.put(r.key(), r));
		return map;
	}

	/** Each rung with its verdict in base and head ({@code -} where a run has no artifact of it). */
	public List<String[]> verdicts() {
		Map<String, String[]> rungs = new LinkedHashMap<>();
		base.rungs().forEach(r -> rungs.computeIfAbsent(r.rung(), k -> new String[]{ k, "-", "-" })[1] = r.verdict());
		head.rungs().forEach(r -> rungs.computeIfAbsent(r.rung(), k -> new String[]{ k, "-", "-" })[2] = r.verdict());
		return List.copyOf(rungs.values());
	}

	/** Whether the two runs measured the same target; comparing across targets is not like for like. */
	public boolean sameTarget() {
		return base.target().equals(head.target());
	}

	public ObjectNode toJson() {
		ObjectNode doc = Json.MAPPER.createObjectNode();
		doc.put("schema", "fak-battery.run-comparison.v1");
		doc.set("base", run(base));
		doc.set("head", run(head));
		doc.put("same_target", sameTarget());
		ArrayNode numbers = doc.putArray("numbers");
		for (Row row : rows) {
			ObjectNode n = numbers.addObject().put("number", row.key()).put("unit", row.unit());
			if (row.base() != null) {
				row.base().writeTo(n.putObject("base"));
			}
			if (row.head() != null) {
				row.head().writeTo(n.putObject("head"));
			}
			n.put("change", row.change()).put("ci_overlap", row.overlap().toString());
		}
		ArrayNode verdicts = doc.putArray("verdicts");
		verdicts().forEach(v -> verdicts.addObject().put("rung", v[0]).put("base", v[1]).put("head", v[2]));
		return doc;
	}

	private static ObjectNode run(RunSnapshot run) {
		ObjectNode node = Json.MAPPER.createObjectNode()
				.put("run_id", run.runId())
				.put("started_at", run.startedAt())
				.put("target", run.target())
				.put("battery", run.battery());
		run.otherRuns().forEach(node.putArray("left_out_other_runs")::add);
		return node;
	}
}
