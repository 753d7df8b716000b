package dev.fakbattery.conformance.standalone;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import dev.fakbattery.conformance.fault.ConfiguredFaultVerification;
import dev.fakbattery.conformance.rules.ClientRule;
import dev.fakbattery.conformance.rules.ConformanceClass;
import dev.fakbattery.conformance.rules.FaultRule;
import dev.fakbattery.conformance.rules.KitFlags;
import dev.fakbattery.conformance.rules.KitRule;
import dev.fakbattery.conformance.rules.WireRule;
import dev.fakbattery.conformance.wire.ConfiguredClientVerification;
import dev.fakbattery.conformance.wire.ConfiguredWireVerification;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.GatewayHeaders;
import dev.fakbattery.core.HarnessConstants;

import org.apiguardian.api.API;
import org.junit.platform.console.ConsoleLauncher;

/**
 * The kit without Maven: {@code java -jar conformance-tests-VERSION-standalone.jar --gateway-url URL --engine vllm}
 * runs the wire rules (or, with {@code --rules fault}, the fault rules) against a running gateway through JUnit's
 * console launcher, prints each rule with its runs ({@link RuleTree}), writes JUnit XML named by rule and target
 * ({@link XmlNames}), prints each outcome's count and each conformance class's result ({@link OutcomeSummary}) and exits 0
 * when every rule of a claimed class ({@code --classes}) that applied passed, 1 when one failed, 2 on a usage error, 3
 * when none failed but some were not judged or pending; a rule of a class not claimed is run and reported but never
 * changes the exit code. {@link #HELP} says how.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class StandaloneKit {

	/** The port of the kit's upstream unless {@code --upstream-port} says otherwise: {@value}. */
	public static final int DEFAULT_UPSTREAM_PORT = 18765;

	/** The JUnit XML folder unless {@code --reports-dir} says otherwise: {@value}. */
	public static final String DEFAULT_REPORTS_DIR = "kit-reports";

	/** Exit code of a usage error: {@value}. */
	public static final int USAGE = 2;

	/** Exit code when no rule failed but some were not judged (no evidence) or are pending: {@value}. */
	public static final int UNJUDGED = 3;

	static final String HELP = """
			Usage: java -jar conformance-tests-VERSION-standalone.jar --gateway-url URL [options]

			Runs the conformance kit's rules against a gateway you run, writes JUnit XML, prints each rule
			run's outcome counted apart (passed, failed, pending, not judged, not applicable, failed
			unclaimed) and each conformance class's rules passed, and exits 0 when every rule of the
			claimed classes that applied passed, 1 when one failed, 2 on a usage error, 3 when none failed
			but some were not judged (no evidence: the kit's upstream not reached, nothing delivered) or
			are pending. A rule of a class the gateway does not claim (--classes) runs and is reported,
			its failure as NOT_CLAIMED with the failure's text, but never changes the exit code.

			The kit plays the engine: before starting, point your gateway's upstream at
			http://127.0.0.1:UPSTREAM_PORT/v1 (default port %1$d) and configure its policy with the
			kit's convention: tools allow_* allowed, deny_* denied, transform_* with arguments
			replaced by {"redacted":true}. Only the --engine dialect runs.

			  --gateway-url URL       the gateway's base URL, e.g. http://127.0.0.1:8080/v1  (gateway.url)
			  --gateway-cmd CMD       instead of a URL: a command that starts the gateway, with {port},
			                          {upstream}, {model}, {engine} filled in; each dialect runs  (gateway.cmd)
			  --engine vllm|sglang    the engine dialect the gateway speaks (default vllm)  (engine)
			  --upstream-port PORT    the kit's upstream port (default %1$d with --gateway-url; with
			                          --gateway-cmd any free port)  (kit.upstream.port)
			  --declares-record       the gateway sends the kit's adjudication record: W17, W18 apply
			                          (gateway.declares.record)
			  --rules wire|fault|client
			                          the wire rules W01..W28 (default), the fault rules F01..F07, or the
			                          client rules C01..C04 (LangChain4j; with node 20+ on the PATH, the
			                          OpenAI Node SDK, the Vercel AI SDK and LangChain.js, which the jar
			                          installs on its first run with npm ci from the lockfile it carries
			                          into --config kit.node.dir=DIR)
			  --classes CLASS,...     the conformance classes the gateway claims (default all): relay (the
			                          wire kept), adjudication (deny, transform, quarantine, renumbering,
			                          finish), record (W17, W18), resilience (F01..F07), clients
			                          (C01..C04); e.g. a relay that does not adjudicate: relay,resilience
			                          (gateway.classes)
			  --only ID,ID...         only these rules, e.g. W01,W09 (ids of the --rules family)
			  --exclude-tag TAG       leave out rules tagged TAG, e.g. wire-timing (W14, W26); repeatable
			  --reports-dir DIR       where the JUnit XML goes (default ./%2$s)
			  --header 'NAME: VALUE'  a request header every kit client sends the gateway (never the kit's
			                          upstream), e.g. --header 'x-portkey-provider: openai'; {api.key} in a
			                          value is the key of --config api.key.env=VAR, {upstream} the kit's
			                          upstream URL; repeatable  (gateway.header.NAME)
			  --config KEY=VALUE      any other kit configuration key; repeatable. Among them: the limits
			                          the gateway documents, each asked only by its fault rule (pending
			                          without it): gateway.upstream.timeout.ms=MS (F02),
			                          gateway.max.event.bytes=BYTES (F04), gateway.max.body.bytes=BYTES
			                          (F06), gateway.max.header.bytes=BYTES (F07); allow.pending=false makes
			                          a pending rule fail (exit 1) instead of exit 3
			  --help                  this text

			Rules, MUST sentences and what to check when one fails: conformance-tests/RULES.md.
			""".formatted(DEFAULT_UPSTREAM_PORT, DEFAULT_REPORTS_DIR);

	private StandaloneKit() {
	}

	public static void main(String[] args) {
		System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
	}

	/**
	 * Runs the kit as {@code args} say; the exit code. One run at a time in a JVM: the outcome counts are the JVM's
	 * ({@link OutcomeSummary}, a listener the launcher loads), so a second caller waits for the first.
	 */
	public static synchronized int run(String[] args, PrintWriter out, PrintWriter err) {
		List<String> launcher;
		try {
			launcher = launcherArguments(args);
		}
		catch (IllegalArgumentException e) {
			err.println(e.getMessage());
			err.println("java -jar conformance-tests-VERSION-standalone.jar --help says how");
			return USAGE;
		}
		if (launcher.isEmpty()) {
			out.print(HELP);
			out.flush();
			return 0;
		}
		OutcomeSummary.to(out, claimed(launcher));
		RuleTree.to(out);
		try {
			int exit = ConsoleLauncher.run(out, err, launcher.toArray(String[]::new)).getExitCode();
			XmlNames.rename(Path.of(launcher.get(launcher.indexOf("--reports-dir") + 1)), RuleTree.xmlNames());
			return exit == 0 && OutcomeSummary.unjudgedClaimed() > 0 ? UNJUDGED : exit;
		}
		finally {
			OutcomeSummary.to(null, Set.of());
			RuleTree.to(null);
		}
	}

	/** The console launcher's arguments for {@code args}; empty for {@code --help}. */
	static List<String> launcherArguments(String[] args) {
		Map<String, String> config = new LinkedHashMap<>();
		List<String> excluded = new ArrayList<>();
		String reports = DEFAULT_REPORTS_DIR;
		String rules = "wire";
		List<String> only = new ArrayList<>();
		List<String> headers = new ArrayList<>();
		config.put(HarnessConstants.ENGINE, "vllm");
		// pending is an outcome here (exit 3), not a failure; the kit's fixes name --config, not -D
		config.put(HarnessConstants.ALLOW_PENDING, "true");
		config.put(ConfigKeys.KIT_LAUNCHER.name(), KitFlags.STANDALONE);
		for (int i = 0; i < args.length; i++) {
			String flag = args[i];
			switch (flag) {
				case "--help", "-h" -> {
					return List.of();
				}
				case "--declares-record" -> config.put(HarnessConstants.GATEWAY_DECLARES_RECORD, "true");
				case "--gateway-url" -> config.put(HarnessConstants.GATEWAY_URL, value(args, ++i, flag));
				case "--gateway-cmd" -> config.put(HarnessConstants.GATEWAY_CMD, value(args, ++i, flag));
				case "--engine" -> config.put(HarnessConstants.ENGINE, oneOf(value(args, ++i, flag), flag, "vllm", "sglang"));
				case "--upstream-port" -> config.put(HarnessConstants.KIT_UPSTREAM_PORT, port(value(args, ++i, flag)));
				case "--rules" -> rules = oneOf(value(args, ++i, flag), flag, "wire", "fault", "client");
				case "--exclude-tag" -> excluded.add(value(args, ++i, flag));
				case "--classes" -> config.put(HarnessConstants.GATEWAY_CLASSES, classes(value(args, ++i, flag), flag));
				case "--only" -> only.addAll(List.of(value(args, ++i, flag).split(",")));
				case "--reports-dir" -> reports = value(args, ++i, flag);
				case "--header" -> headers.add(header(value(args, ++i, flag)));
				case "--config" -> {
					String pair = value(args, ++i, flag);
					int eq = pair.indexOf('=');
					if (eq <= 0) {
						throw new IllegalArgumentException("--config takes KEY=VALUE, not " + pair);
					}
					String key = pair.substring(0, eq);
					if (key.startsWith(GatewayHeaders.PREFIX)) {
						// JUnit cannot list its configuration parameters: one header goes in with the others
						headers.add(key.substring(GatewayHeaders.PREFIX.length()) + ": " + pair.substring(eq + 1));
					}
					else {
						config.put(key, pair.substring(eq + 1));
					}
				}
				default -> throw new IllegalArgumentException("unknown option " + flag);
			}
		}
		if (!headers.isEmpty()) {
			config.merge(HarnessConstants.GATEWAY_HEADERS, String.join("\n", headers), (given, more) -> given + "\n" + more);
		}
		if (config.containsKey(HarnessConstants.GATEWAY_CLASSES)) {
			classes(config.get(HarnessConstants.GATEWAY_CLASSES), HarnessConstants.GATEWAY_CLASSES);
		}
		if (config.containsKey(HarnessConstants.GATEWAY_URL)) {
			config.putIfAbsent(HarnessConstants.KIT_UPSTREAM_PORT, String.valueOf(DEFAULT_UPSTREAM_PORT));
		}
		else if (!config.containsKey(HarnessConstants.GATEWAY_CMD)) {
			throw new IllegalArgumentException("no gateway: give --gateway-url http://HOST:PORT/v1 (a running gateway whose upstream is "
					+ "http://127.0.0.1:" + config.getOrDefault(HarnessConstants.KIT_UPSTREAM_PORT, String.valueOf(DEFAULT_UPSTREAM_PORT))
					+ "/v1) or --gateway-cmd \"... {port} {upstream}\"");
		}
		List<String> launcher = new ArrayList<>(List.of("execute", "--disable-banner", "--disable-ansi-colors", "--details=none",
				"--fail-if-no-tests", "--reports-dir", reports, "--select-class",
				switch (rules) {
					case "fault" -> ConfiguredFaultVerification.class.getName();
					case "client" -> ConfiguredClientVerification.class.getName();
					default -> ConfiguredWireVerification.class.getName();
				}));
		excluded.forEach(tag -> launcher.addAll(List.of("--exclude-tag", tag)));
		if (!only.isEmpty()) {
			launcher.add("--include-methodname=.*#[a-z]+_(" + String.join("|", known(rules, only)) + ")_.*");
		}
		config.forEach((key, value) -> launcher.addAll(List.of("--config", key + "=" + value)));
		return launcher;
	}

	/** A {@code --header} value, {@code NAME: VALUE}; the value is never echoed in a usage error (it may be a key). */
	private static String header(String value) {
		int colon = value.indexOf(':');
		if (colon <= 0 || value.substring(0, colon).isBlank()) {
			throw new IllegalArgumentException("--header takes 'NAME: VALUE', e.g. --header 'x-portkey-provider: openai'");
		}
		return value.strip();
	}

	/** {@code value} when it names conformance classes; a usage error naming {@code parameter} and the classes otherwise. */
	private static String classes(String value, String parameter) {
		try {
			return ConformanceClass.claim(ConformanceClass.parse(value, parameter));
		}
		catch (ConfigurationException e) {
			throw new IllegalArgumentException(e.getMessage(), e);
		}
	}

	/** The classes the launcher's {@code --config gateway.classes=...} claims; every class without one. */
	static Set<ConformanceClass> claimed(List<String> launcher) {
		String prefix = HarnessConstants.GATEWAY_CLASSES + "=";
		return ConformanceClass.parse(launcher.stream()
				.filter(a -> a.startsWith(prefix))
				.reduce((first, second) -> second)
				.map(a -> a.substring(prefix.length()))
				.orElse(ConformanceClass.ALL), HarnessConstants.GATEWAY_CLASSES);
	}

	/** {@code ids}, each checked against the rule index of {@code rules}. */
	private static List<String> known(String rules, List<String> ids) {
		List<String> index = Stream.of(switch (rules) {
			case "fault" -> FaultRule.values();
			case "client" -> ClientRule.values();
			default -> WireRule.values();
		}).map(KitRule::id).toList();
		for (String id : ids) {
			if (!index.contains(id)) {
				throw new IllegalArgumentException("--only: " + id + " is not one of the " + rules + " rules " + index);
			}
		}
		return ids;
	}

	private static String value(String[] args, int at, String flag) {
		if (at >= args.length || args[at].startsWith("--")) {
			throw new IllegalArgumentException(flag + " needs a value");
		}
		return args[at];
	}

	private static String oneOf(String value, String flag, String... allowed) {
		if (!List.of(allowed).contains(value)) {
			throw new IllegalArgumentException(flag + " is one of " + List.of(allowed) + ", not " + value);
		}
		return value;
	}

	private static String port(String value) {
		try {
			int port = Integer.parseInt(value);
			if (port > 0 && port < 65536) {
				return value;
			}
		}
		catch (NumberFormatException e) {
			// below
		}
		throw new IllegalArgumentException("--upstream-port is a port (1..65535), not " + value);
	}
}
