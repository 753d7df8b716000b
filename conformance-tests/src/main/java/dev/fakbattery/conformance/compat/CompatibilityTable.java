package dev.fakbattery.conformance.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.conformance.rules.ConformanceClass;
import dev.fakbattery.conformance.rules.KitRule;
import dev.fakbattery.conformance.rules.KitRules;
import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.wire.Json;

import org.apiguardian.api.API;

/**
 * {@code docs/compatibility.md}, generated from the committed readings ({@link CompatibilityReading}, one folder per
 * gateway under {@code experiments/compatibility}): per gateway, class, dialect and mode the rules that passed of those
 * that applied, pending and not judged counted apart; then each rule that failed somewhere, with its first failing
 * message's first line ({@link #model}, rendered as Markdown by {@link #render} and as the battery report's HTML page by
 * {@link #html}). {@code main} writes a reading ({@code reading OUT NAME DATE COMMIT HOST COMMAND XML...}), the table
 * ({@code table READINGS_DIR DOC}) or the report's page ({@code page READINGS_DIR HTML}).
 *
 * @since 0.10
 */
@API(status = API.Status.INTERNAL, since = "0.10")
public final class CompatibilityTable {

	static final List<String> TARGETS = List.of("vllm non-stream", "vllm stream", "sglang non-stream", "sglang stream");

	private CompatibilityTable() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length >= 8 && args[0].equals("reading")) {
			Map<String, String> about = new LinkedHashMap<>();
			about.put("name", args[2]);
			about.put("date", args[3]);
			about.put("commit", args[4]);
			about.put("host", args[5]);
			about.put("command", args[6]);
			CompatibilityReading.write(Path.of(args[1]), about, Stream.of(args).skip(7).map(Path::of).toList());
		}
		else if (args.length == 3 && args[0].equals("table")) {
			Files.writeString(Path.of(args[2]), render(Path.of(args[1])));
		}
		else if (args.length == 3 && args[0].equals("page")) {
			Files.createDirectories(Path.of(args[2]).toAbsolutePath().getParent());
			Files.writeString(Path.of(args[2]), html(Path.of(args[1])));
		}
		else {
			System.err.println("usage: CompatibilityTable reading OUT NAME DATE COMMIT HOST COMMAND XML... | table READINGS_DIR DOC"
					+ " | page READINGS_DIR HTML");
			System.exit(2);
		}
	}

	/** One line of the table: a gateway's reading ({@code Portkey 1.15.2 (2026-12-05)}), a class and its cell per target. */
	record Row(String gateway, ConformanceClass type, List<String> cells) {
	}

	/** A rule that failed somewhere in a reading: where ({@code every target} or the targets) and its first failure's cause. */
	record Failure(String rule, String type, String where, String cause) {
	}

	/** One reading: its gateway, date, commit and host, and each rule that failed. */
	record Reading(String name, String date, String commit, String host, List<Failure> failures) {
	}

	/** The table of the readings, which both the Markdown page and the report's HTML page render. */
	record Model(List<Row> rows, List<Reading> readings) {
	}

	/** The model of the readings under {@code readings} (each folder's {@code kit-outcomes.json}, by folder name). */
	static Model model(Path readings) {
		List<JsonNode> all = new ArrayList<>();
		try (Stream<Path> folders = Files.list(readings)) {
			for (Path file : folders.sorted().map(f -> f.resolve("kit-outcomes.json")).filter(Files::isRegularFile).toList()) {
				all.add(Json.MAPPER.readTree(file.toFile()));
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		List<Row> rows = new ArrayList<>();
		for (JsonNode reading : all) {
			for (ConformanceClass type : ConformanceClass.values()) {
				List<String> cells = new ArrayList<>();
				for (String target : TARGETS) {
					cells.add(cell(reading.path("rules"), type, target));
				}
				if (!cells.stream().allMatch(c -> c.equals("-"))) {
					rows.add(new Row(reading.path("name").asText() + " (" + reading.path("date").asText() + ")", type, List.copyOf(cells)));
				}
			}
		}
		List<Reading> read = new ArrayList<>();
		for (JsonNode reading : all) {
			List<Failure> failures = new ArrayList<>();
			reading.path("rules").fields().forEachRemaining(rule -> {
				List<String> failed = new ArrayList<>();
				String first = null;
				for (String target : TARGETS) {
					JsonNode run = rule.getValue().path(target);
					if (run.path("outcome").asText().equals(RuleOutcome.FAIL.name())) {
						failed.add(target);
						first = first == null ? run.path("message").asText() : first;
					}
				}
				if (!failed.isEmpty()) {
					String type = KitRules.byId(rule.getKey()).map(KitRule::conformanceClass).map(ConformanceClass::id).orElse("?");
					failures.add(new Failure(rule.getKey(), type,
							failed.size() == TARGETS.size() ? "every target" : String.join(", ", failed), cause(first)));
				}
			});
			read.add(new Reading(reading.path("name").asText(), reading.path("date").asText(), reading.path("commit").asText(),
					reading.path("host").asText(), List.copyOf(failures)));
		}
		return new Model(List.copyOf(rows), List.copyOf(read));
	}

	/** The Markdown page for the readings under {@code readings}: {@code docs/compatibility.md}. */
	public static String render(Path readings) {
		Model model = model(readings);
		StringBuilder page = new StringBuilder("""
				# Compatibility

				What the kit's rules say of gateways nobody on this project wrote, each started and stopped by the harness
				(`tools/compatibility/run.sh`). Generated from the readings in
				[experiments/compatibility](../experiments/compatibility/README.md) by `CompatibilityTable`; `CompatibilityTableTests`
				fails when this page and the readings differ. A cell counts the rules of a class that passed in that target of those
				that applied (a rule of another mode, or a record not declared, does not apply); pending and not judged rules are
				counted apart. A relay that does not adjudicate fails the adjudication class by design: it claims `relay`,
				`resilience` and `clients` ([RULES.md](../conformance-tests/RULES.md#conformance-classes)).

				| gateway | class | vLLM non-stream | vLLM stream | SGLang non-stream | SGLang stream |
				|---|---|---|---|---|---|
				""");
		for (Row row : model.rows()) {
			page.append("| ")
					.append(row.gateway())
					.append(" | ")
					.append(row.type().id())
					.append(" | ")
					.append(String.join(" | ", row.cells()))
					.append(" |\n");
		}
		for (Reading reading : model.readings()) {
			page.append("\n## ")
					.append(reading.name())
					.append("\n\n")
					.append(reading.date())
					.append(", commit ")
					.append(reading.commit())
					.append(", ")
					.append(reading.host())
					.append(".\n\n");
			for (Failure failure : reading.failures()) {
				page.append("- **")
						.append(failure.rule())
						.append("** (")
						.append(failure.type())
						.append("; ")
						.append(failure.where())
						.append("): ")
						.append(failure.cause().replace("|", "\\|"))
						.append('\n');
			}
		}
		return page.toString();
	}

	/**
	 * The same table as one HTML page, for the battery report (attached to its final gate's page): the rows and failures
	 * of {@link #model}, as {@link #render} writes them.
	 */
	public static String html(Path readings) {
		Model model = model(readings);
		StringBuilder page = new StringBuilder(
				"""
						<!DOCTYPE html>
						<html lang="en"><head><meta charset="UTF-8"><title>Compatibility</title>
						<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}</style>
						</head><body>
						<h1>Compatibility</h1>
						<p>What the kit's rules say of gateways nobody on this project wrote, generated by CompatibilityTable from the
						committed readings in experiments/compatibility, as docs/compatibility.md is. A cell counts the rules of a class that
						passed in that target of those that applied; pending and not judged rules are counted apart. These are readings of
						other gateways on their dates, not a verdict of this run.</p>
						<table>
						<tr><th>gateway</th><th>class</th><th>vLLM non-stream</th><th>vLLM stream</th><th>SGLang non-stream</th><th>SGLang stream</th></tr>
						""");
		for (Row row : model.rows()) {
			page.append("<tr><td>").append(escape(row.gateway())).append("</td><td>").append(escape(row.type().id())).append("</td>");
			row.cells().forEach(cell -> page.append("<td>").append(escape(cell)).append("</td>"));
			page.append("</tr>\n");
		}
		page.append("</table>\n");
		for (Reading reading : model.readings()) {
			page.append("<h2>")
					.append(escape(reading.name()))
					.append("</h2>\n<p>")
					.append(escape(reading.date() + ", commit " + reading.commit() + ", " + reading.host()))
					.append(".</p>\n<ul>\n");
			for (Failure failure : reading.failures()) {
				page.append("<li><b>")
						.append(escape(failure.rule()))
						.append("</b> (")
						.append(escape(failure.type() + "; " + failure.where()))
						.append("): ")
						.append(escape(failure.cause()))
						.append("</li>\n");
			}
			page.append("</ul>\n");
		}
		return page.append("</body></html>\n").toString();
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

	/** {@code passed/applied} of the rules of {@code type} in {@code target}, pending and not judged apart; {@code -} for none. */
	static String cell(JsonNode rules, ConformanceClass type, String target) {
		int passed = 0;
		int applied = 0;
		int pending = 0;
		int notJudged = 0;
		for (var rule : (Iterable<Map.Entry<String, JsonNode>>) rules::fields) {
			if (KitRules.byId(rule.getKey()).map(KitRule::conformanceClass).filter(type::equals).isEmpty()) {
				continue;
			}
			String outcome = rule.getValue().path(target).path("outcome").asText("");
			switch (outcome) {
				case "PASS" -> {
					passed++;
					applied++;
				}
				case "FAIL", "NOT_CLAIMED" -> applied++;
				case "PENDING_MEASUREMENT" -> pending++;
				case "NOT_JUDGED" -> notJudged++;
				default -> {
				}
			}
		}
		if (applied + pending + notJudged == 0) {
			return "-";
		}
		return passed + "/" + applied + (pending > 0 ? ", " + pending + " pending" : "")
				+ (notJudged > 0 ? ", " + notJudged + " not judged" : "");
	}

	/**
	 * The first line of a failure (of a run with several failing cases, its count and its first case), its rule and
	 * target taken off, at most 200 characters.
	 */
	static String cause(String message) {
		List<String> lines = message == null ? List.of() : message.lines().toList();
		String line = lines.isEmpty() ? "" : lines.get(0).replaceFirst("^\\w+ \\[[a-z]+ [a-z-]+\\]:? ?", "");
		if (line.matches("\\d+ failing cases") && lines.size() > 1) {
			line = line + ", the first: " + lines.get(1).strip().replaceFirst("^- \\w+ \\[[a-z]+ [a-z-]+\\]:? ?", "");
		}
		return line.length() <= 200 ? line : line.substring(0, 200) + "...";
	}
}
