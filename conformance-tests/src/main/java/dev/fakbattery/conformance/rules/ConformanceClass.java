package dev.fakbattery.conformance.rules;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import dev.fakbattery.core.ConfigurationException;

import org.apiguardian.api.API;

/**
 * What kind of promise a rule holds a gateway to: every rule of the index belongs to one class
 * ({@link KitRule#conformanceClass()}). A gateway claims the classes it keeps ({@code gateway.classes},
 * {@code --classes}); a rule of a class it does not claim still runs and is reported, but its failure fails nothing
 * ({@link RuleOutcome#NOT_CLAIMED}). A relay that does not adjudicate claims {@code relay} (and what else it keeps), and
 * its summary says so instead of "failed".
 *
 * @since 0.8
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.8")
public enum ConformanceClass {

	/** The wire kept: model, ids, arguments, content, usage, errors, streaming, framing, headers, parameters. */
	RELAY("the wire kept: model, ids, arguments, content, usage, errors, streaming, framing, headers, request parameters"),
	/** The gateway's verdicts on tool calls and results: allow, deny, transform, quarantine, renumbering, finish. */
	ADJUDICATION("the gateway's verdicts on the wire: deny, transform, quarantine, survivors renumbered, a finish that matches them"),
	/** The kit's adjudication record and the prefix-cache reset after a quarantine (W17, W18). */
	RECORD("the kit's adjudication record, asked for, and the engine's prefix cache reset after a quarantine"),
	/** What the gateway does when things go wrong: cancellation, timeouts, limits, slow clients (F01..F07). */
	RESILIENCE("what the gateway does when things go wrong: a client gone, a stalled or oversized upstream, a slow client, limits"),
	/** Client libraries users run read every answer as the kit does (C01..C04). */
	CLIENTS("client libraries users run (LangChain4j, the OpenAI Node SDK, the Vercel AI SDK, LangChain.js) read every answer as the kit does");

	/** The value of {@code gateway.classes} that claims every class: {@value}. */
	public static final String ALL = "all";

	private final String text;

	ConformanceClass(String text) {
		this.text = text;
	}

	/** The class's name in {@code gateway.classes}, {@code --classes}, summaries and artifacts: {@code relay}. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** What the class's rules hold a gateway to. */
	public String text() {
		return text;
	}

	/** The ids of every class, as {@code gateway.classes} takes them. */
	public static List<String> ids() {
		return Stream.of(values()).map(ConformanceClass::id).toList();
	}

	/**
	 * The classes {@code value} claims (a comma list of {@link #id()}s, or {@value #ALL}); a misconfiguration naming
	 * {@code parameter}, the value that is not a class and the valid ones otherwise.
	 */
	public static Set<ConformanceClass> parse(String value, String parameter) {
		Set<ConformanceClass> claimed = EnumSet.noneOf(ConformanceClass.class);
		List<String> names = Arrays.stream(value.split(",")).map(String::strip).filter(n -> !n.isEmpty()).toList();
		for (String name : names) {
			if (name.equalsIgnoreCase(ALL)) {
				claimed.addAll(EnumSet.allOf(ConformanceClass.class));
				continue;
			}
			claimed.add(Stream.of(values())
					.filter(c -> c.id().equalsIgnoreCase(name))
					.findFirst()
					.orElseThrow(() -> new ConfigurationException(parameter + ": " + name + " is not a conformance class; the classes are "
							+ String.join(", ", ids()) + " (or " + ALL + "), e.g. " + parameter + (parameter.startsWith("--") ? " " : "=")
							+ "relay,resilience")));
		}
		if (claimed.isEmpty()) {
			throw new ConfigurationException(
					parameter + " claims no class (\"" + value + "\"); give a comma list of " + String.join(", ", ids())
							+ " (or " + ALL + ")");
		}
		return claimed;
	}

	/** The class of the rule {@code id} ({@code W03}, {@code F01}, {@code C02}), as its index says. */
	public static Optional<ConformanceClass> ofRule(String id) {
		return KitRules.byId(id).map(KitRule::conformanceClass);
	}

	/** {@code claimed} as {@code gateway.classes} writes it, in the classes' order: {@code relay,resilience}. */
	public static String claim(Set<ConformanceClass> claimed) {
		return String.join(",", Stream.of(values()).filter(claimed::contains).map(ConformanceClass::id).toList());
	}
}
