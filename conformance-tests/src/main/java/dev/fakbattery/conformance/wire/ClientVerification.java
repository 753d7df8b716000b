package dev.fakbattery.conformance.wire;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.conformance.rules.ClientRule;
import dev.fakbattery.conformance.wire.WireChecks.Client;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.wire.Dialect;

import org.apiguardian.api.API;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The client rules (C01..C04): client libraries users run in front of a gateway read every answer of the kit (the
 * answers W19 reads with the official Java SDK: text, tool calls, errors, in both modes, for each engine dialect) the
 * way their documentation reads streams and tool calls, and must make of each what the kit's own reading makes. C01 is
 * LangChain4j (in the kit); C02..C04 are JavaScript clients run with {@code node} ({@link NodeClients}), each once per
 * run for every answer, skipped naming the reason where {@code node} or the installed clients are missing
 * ({@code kit.node.clients}, {@code kit.node.dir}). The index is {@link ClientRule}; RULES.md gives each rule's MUST
 * sentence, when it is skipped and what to check when it fails.
 *
 * <p>The TCK way, as {@link WireVerification}: subclass it and override {@link #createGateway}, or run
 * {@link ConfiguredClientVerification} against the configured gateway.
 *
 * @since 0.7
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.7")
@DisplayName("client rules")
public abstract class ClientVerification extends WireConformanceKit {

	static final String TARGETS = "targets";

	static final String NAME = "{0} {1}";

	/** LangChain4j names a finish reason by its {@code FinishReason}. */
	private static final UnaryOperator<String> LANGCHAIN4J_FINISH = finish -> switch (finish) {
		case "stop" -> "STOP";
		case "length" -> "LENGTH";
		case "tool_calls", "function_call" -> "TOOL_EXECUTION";
		case "content_filter" -> "CONTENT_FILTER";
		default -> "OTHER";
	};

	private final Map<Dialect, LangChain4jReader> langchain4j = new HashMap<>();

	private final Map<Dialect, LangChain4jReader> rawLangchain4j = new HashMap<>();

	private final Map<ClientRule, Map<String, SdkReader.View>> nodeReadings = new ConcurrentHashMap<>();

	private final Map<ClientRule, Map<String, SdkReader.View>> rawNodeReadings = new ConcurrentHashMap<>();

	private NodeClients node;

	@AfterAll
	void forgetReaders() {
		langchain4j.clear();
		rawLangchain4j.clear();
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("C01 LangChain4j's OpenAI client reads every answer as the kit does")
	public void required_C01_langchain4j(Dialect engine, String mode, TestReporter reporter) {
		LangChain4jReader gateway = langchain4j.computeIfAbsent(engine,
				e -> new LangChain4jReader(gateway(e).baseUrl(), ALIAS, gatewayHeaders(e)));
		LangChain4jReader raw = rawLangchain4j.computeIfAbsent(engine, e -> new LangChain4jReader(upstream(e).url(), ALIAS, Map.of()));
		judge(ClientRule.C01, new Client(LangChain4jReader.CLIENT, false, LANGCHAIN4J_FINISH, false), engine, mode, reporter,
				request -> gateway.read(request), request -> raw.read(request));
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("C02 the official OpenAI Node SDK reads every answer as the kit does")
	public void required_C02_openaiNode(Dialect engine, String mode, TestReporter reporter) {
		node(ClientRule.C02, "openai-node.mjs", Client.verbatim("OpenAI Node SDK " + node().version("openai")), engine, mode, reporter);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("C03 the Vercel AI SDK reads every answer as the kit does")
	public void required_C03_vercelAi(Dialect engine, String mode, TestReporter reporter) {
		node(ClientRule.C03, "vercel-ai.mjs", new Client("Vercel AI SDK " + node().version("ai") + " (@ai-sdk/openai-compatible "
				+ node().version("@ai-sdk/openai-compatible") + ")", true, UnaryOperator.identity(), true), engine, mode, reporter);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("C04 LangChain.js reads every answer as the kit does")
	public void required_C04_langchainJs(Dialect engine, String mode, TestReporter reporter) {
		node(ClientRule.C04, "langchain-js.mjs",
				new Client("LangChain.js ChatOpenAI " + node().version("@langchain/openai"), true, UnaryOperator.identity(), true), engine,
				mode, reporter);
	}

	/** The configured JavaScript clients (read once). */
	synchronized NodeClients node() {
		if (node == null) {
			node = new NodeClients(config());
		}
		return node;
	}

	/** A JavaScript client's rule: skipped (or, required, failed) where it cannot run, else judged on its one run's readings. */
	private void node(ClientRule rule, String script, Client client, Dialect engine, String mode, TestReporter reporter) {
		NodeClients clients = node();
		Optional<String> missing = clients.missing();
		if (missing.isPresent() && clients.required()) {
			throw new ConfigurationException(rule.id() + " [" + engine + " " + mode + "]: " + ConfigKeys.KIT_NODE_CLIENTS.name()
					+ "=required, but " + missing.get() + ". Fix: that, or pass -D" + ConfigKeys.KIT_NODE_CLIENTS.name()
					+ "=auto to skip the JavaScript clients where they cannot run");
		}
		if (missing.isPresent()) {
			pending(rule.id() + " [" + engine + " " + mode + "] not run: " + missing.get());
		}
		Map<String, SdkReader.View> readings = nodeReadings.computeIfAbsent(rule, r -> clients.read(script, jobs(false)));
		judge(rule,
				new Client(client.name() + " on node " + clients.node(), client.parsesArguments(), client.finish(),
						client.raisesErrorFrames()),
				engine, mode,
				reporter, request -> readings.get(key(engine, mode, request, false)),
				request -> rawNodeReadings.computeIfAbsent(rule, r -> clients.read(script, jobs(true)))
						.get(key(engine, mode, request, true)));
	}

	/**
	 * Every request of every target, to the gateway (or, {@code raw}, to the kit's upstream: the client's reading of the
	 * engine's original answer, which every answer is judged beside), for one run of a JavaScript client.
	 */
	private List<Map<String, Object>> jobs(boolean raw) {
		List<Map<String, Object>> jobs = new ArrayList<>();
		targets().forEach(arguments -> {
			Dialect engine = (Dialect) ((Named<?>) arguments.get()[0]).getPayload();
			String mode = (String) ((Named<?>) arguments.get()[1]).getPayload();
			for (String marker : markers(engine)) {
				ObjectNode request = request(marker, send(engine, mode, marker, Map.of()).nonce(), stream(mode));
				jobs.add(Map.of("key", key(engine, mode, request, raw), "url",
						(raw ? upstream(engine).url() : gateway(engine).baseUrl()).toString(), "headers",
						raw ? Map.of() : gatewayHeaders(engine),
						"request", request));
			}
		});
		return jobs;
	}

	private static String key(Dialect engine, String mode, ObjectNode request, boolean raw) {
		return engine + " " + mode + " " + request.path("messages").path(0).path("content").asText() + (raw ? " raw" : "");
	}

	/** The answers the client rules read: W19's, every scenario that answers at once and every error fixture. */
	private List<String> markers(Dialect engine) {
		List<String> markers = new ArrayList<>(Scenario.ANSWERS.stream().map(Scenario::marker).toList());
		upstream(engine).errorFixtures().stream().map(KitUpstream::errorMarker).forEach(markers::add);
		return markers;
	}

	/**
	 * Each answer, read by the kit and by the client through the gateway, and by the same client from the engine directly:
	 * where the client does not read the gateway's answer as the kit does, its two readings are compared, like with like
	 * ({@link WireChecks#asTheEngineOriginal}), and every failing answer is a case of the run's failure.
	 */
	private void judge(ClientRule rule, Client client, Dialect engine, String mode, TestReporter reporter,
			Function<ObjectNode, SdkReader.View> read, Function<ObjectNode, SdkReader.View> readRaw) {
		List<String> unreadable = new ArrayList<>();
		for (String marker : markers(engine)) {
			Sent sent = send(engine, mode, marker, Map.of());
			ObjectNode request = request(marker, sent.nonce(), stream(mode));
			SdkReader.View view = read.apply(request);
			SdkReader.View raw = readRaw.apply(request);
			WireChecks.SdkJudgement judged;
			try {
				judged = WireChecks.client(client, sent.answer(), view, () -> raw, marker);
				if (!judged.passed() && !sent.answer().isError()) {
					Exchange original = this.client.post(upstream(engine).url(), request.toString(), stream(mode), Map.of());
					judged = WireChecks.asTheEngineOriginal(client, sent.answer(), original, view, raw, marker).orElse(judged);
				}
			}
			catch (RuntimeException e) {
				require(false, rule, engine, mode, "an answer to " + marker + " the kit can read",
						"the kit cannot (" + e.getMessage() + "); " + client.name() + " "
								+ view.failure().map(f -> "threw " + f).orElse("read " + WireChecks.view(client, view)));
				continue;
			}
			require(judged.passed(), rule, engine, mode, judged.expected(), judged.observed());
			if (!judged.judged()) {
				unreadable.add(judged.observed());
			}
		}
		if (!unreadable.isEmpty()) {
			reporter.publishEntry(rule.id() + " not judged: " + client.name() + " cannot read the engine's own answer",
					String.join("; ", unreadable));
		}
	}
}
