package dev.fakbattery.conformance.rules;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apiguardian.api.API;

/**
 * RULES.md's rule tables, generated from the index ({@link WireRule}, {@link FaultRule}, {@link CapturedWireRule},
 * {@link ClientRule}):
 * each table stands between a {@code <!-- rules:NAME -->} and a {@code <!-- /rules:NAME -->} line, and
 * {@link #render(String)} replaces what is between them. Run as a program it rewrites the file it is given:
 * {@code java -cp conformance-tests/target/classes dev.fakbattery.conformance.rules.RulesMarkdown conformance-tests/RULES.md}.
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class RulesMarkdown {

	/** The tables by name, as they appear in the markers. */
	static final Map<String, Supplier<String>> TABLES = Map.of("wire", RulesMarkdown::wire, "fault", RulesMarkdown::fault, "captured",
			RulesMarkdown::captured, "client", RulesMarkdown::client, "evidence", RulesMarkdown::evidence, "classes",
			RulesMarkdown::classes);

	private RulesMarkdown() {
	}

	/** Rewrites the RULES.md named by {@code args[0]} (default {@code conformance-tests/RULES.md}). */
	public static void main(String[] args) throws IOException {
		Path file = Path.of(args.length > 0 ? args[0] : "conformance-tests/RULES.md");
		Files.writeString(file, render(Files.readString(file)));
		System.out.println("wrote the rule tables of " + file.toAbsolutePath());
	}

	/** {@code markdown} with every marked table replaced by the index's; a missing marker is an error naming it. */
	public static String render(String markdown) {
		String out = markdown;
		for (String name : List.of("wire", "fault", "captured", "client", "evidence", "classes")) {
			String begin = "<!-- rules:" + name + " -->\n";
			String end = "<!-- /rules:" + name + " -->";
			int from = out.indexOf(begin);
			int to = out.indexOf(end);
			if (from < 0 || to < from) {
				throw new IllegalArgumentException("RULES.md has no " + begin.strip() + " ... " + end + " around the " + name + " table");
			}
			out = out.substring(0, from + begin.length()) + TABLES.get(name).get() + out.substring(to);
		}
		return out;
	}

	/** The wire rules' table: id, class, MUST, modes, evidence, skipped when, if it fails, check. */
	public static String wire() {
		return table(List.of("id", "class", "MUST", "modes", "evidence", "skipped when", "if it fails, check"),
				Stream.of(WireRule.values())
						.map(r -> List.of(r.id(), r.conformanceClass().id(), r.must(), r.modes(), r.evidence().name(), r.skippedWhen(),
								r.ifItFails())));
	}

	/** The fault rules' table: id, class, MUST, modes, numbers, evidence, skipped when, if it fails, check. */
	public static String fault() {
		return table(List.of("id", "class", "MUST", "modes", "numbers", "evidence", "skipped when", "if it fails, check"),
				Stream.of(FaultRule.values())
						.map(r -> List.of(r.id(), r.conformanceClass().id(), r.must(), r.modes(), r.numbers(), r.evidence().name(),
								r.skippedWhen(), r.ifItFails())));
	}

	/** The captured-wire rules' table: id, judged on, what it checks, modes, skipped when (if it fails: the wire rule's list). */
	public static String captured() {
		return table(List.of("id", "judged on", "checks", "modes", "skipped when"),
				Stream.of(CapturedWireRule.values()).map(r -> List.of(r.id(), r.judgedOn(), r.must(), r.modes(), r.skippedWhen())));
	}

	/** The client rules' table: id, class, MUST, modes, evidence, skipped when, if it fails, check. */
	public static String client() {
		return table(List.of("id", "class", "MUST", "modes", "evidence", "skipped when", "if it fails, check"),
				Stream.of(ClientRule.values())
						.map(r -> List.of(r.id(), r.conformanceClass().id(), r.must(), r.modes(), r.evidence().name(), r.skippedWhen(),
								r.ifItFails())));
	}

	/** The conformance classes' table: class, what its rules hold a gateway to, its rules. */
	public static String classes() {
		return table(List.of("class", "its rules hold the gateway to", "rules"),
				Stream.of(ConformanceClass.values())
						.map(c -> List.of("`" + c.id() + "`", c.text(), KitRules.all()
								.stream()
								.filter(r -> r.conformanceClass() == c)
								.map(KitRule::id)
								.collect(Collectors.joining(", ")))));
	}

	/** What each kind of evidence is: the legend under the tables. */
	public static String evidence() {
		return table(List.of("evidence", "a rule run that passed its checks counts as a pass only when"),
				Stream.of(Evidence.values()).map(e -> List.of(e.name(), e.text())));
	}

	private static String table(List<String> header, Stream<List<String>> rows) {
		return Stream.concat(Stream.of(header, header.stream().map(h -> "---").toList()), rows)
				.map(cells -> "| " + String.join(" | ", cells) + " |\n")
				.collect(Collectors.joining());
	}
}
