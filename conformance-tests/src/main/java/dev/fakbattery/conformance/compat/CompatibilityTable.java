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
 * message's first line. {@code main} writes a reading ({@code reading OUT NAME DATE COMMIT HOST COMMAND XML...}) or the
 * table ({@code table READINGS_DIR DOC}).
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
		else {
			System.err.println("usage: CompatibilityTable reading OUT NAME DATE COMMIT HOST COMMAND XML... | table READINGS_DIR DOC");
			System.exit(2);
		}
	}

	/** The page for the readings under {@code readings} (each folder's {@code kit-outcomes.json}, by folder name). */
	public static String render(Path readings) {
		List<JsonNode> all = new ArrayList<>();
		try (Stream<Path> folders = Files.list(readings)) {
			for (Path file : folders.sorted().map(f -> f.resolve("kit-outcomes.json")).filter(Files::isRegularFile).toList()) {
				all.add(Json.MAPPER.readTree(file.toFile()));
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
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
		for (JsonNode reading : all) {
			for (ConformanceClass type : ConformanceClass.values()) {
				List<String> cells = new ArrayList<>();
				for (String target : TARGETS) {
					cells.add(cell(reading.path("rules"), type, target));
				}
				if (cells.stream().allMatch(c -> c.equals("-"))) {
					continue;
				}
				page.append("| ")
						.append(reading.path("name").asText())
						.append(" (")
						.append(reading.path("date").asText())
						.append(") | ")
						.append(type.id())
						.append(" | ")
						.append(String.join(" | ", cells))
						.append(" |\n");
			}
		}
		for (JsonNode reading : all) {
			page.append("\n## ")
					.append(reading.path("name").asText())
					.append("\n\n")
					.append(reading.path("date").asText())
					.append(", commit ")
					.append(reading.path("commit").asText())
					.append(", ")
					.append(reading.path("host").asText())
					.append(".\n\n");
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
					page.append("- **")
							.append(rule.getKey())
							.append("** (")
							.append(type)
							.append("; ")
							.append(failed.size() == TARGETS.size() ? "every target" : String.join(", ", failed))
							.append("): ")
							.append(cause(first))
							.append('\n');
				}
			});
		}
		return page.toString();
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
		line = line.length() <= 200 ? line : line.substring(0, 200) + "...";
		return line.replace("|", "\\|");
	}
}
