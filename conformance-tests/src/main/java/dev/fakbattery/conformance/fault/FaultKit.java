package dev.fakbattery.conformance.fault;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.conformance.rules.ClaimedClasses;
import dev.fakbattery.conformance.rules.Evidence;
import dev.fakbattery.conformance.rules.KitFlags;
import dev.fakbattery.conformance.rules.KitRule;
import dev.fakbattery.conformance.rules.NotJudged;
import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.conformance.wire.KitConfigResolver;
import dev.fakbattery.core.GatewayHeaders;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.PendingMeasurementError;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.WireJson;
import dev.fakbattery.wire.spi.GatewayLimits;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.apiguardian.api.API;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.provider.Arguments;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The fault rules' plumbing: one {@link FaultUpstream} per engine dialect, the gateway under test in front of each,
 * the kit's requests, and the checks the rules share. The rules are in {@link FaultVerification}; implementers subclass it
 * and supply the gateway. Its protected methods are the hooks an implementer overrides; the rest is package-private.
 *
 * @since 0.6
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(KitConfigResolver.class)
@ExtendWith(FaultEvidenceExtension.class)
@ExtendWith(ClaimedClasses.class)
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public abstract class FaultKit {

	static final String MODEL = "fault-kit-model";

	/** How a limit rule without limits to hold the gateway to begins its message; the fault rung counts these as pending. */
	static final String PENDING = RuleOutcome.PENDING_PREFIX;

	/** What the fault rung says a gateway without declared limits must be given: the four limits, as a Maven build takes them. */
	static final String LIMITS_FIX = "set -D" + HarnessConstants.GATEWAY_UPSTREAM_TIMEOUT_MS + "=MS -D"
			+ HarnessConstants.GATEWAY_MAX_BODY_BYTES
			+ "=BYTES -D" + HarnessConstants.GATEWAY_MAX_HEADER_BYTES + "=BYTES -D" + HarnessConstants.GATEWAY_MAX_EVENT_BYTES
			+ "=BYTES, the limits the gateway documents";

	/** One of the limits a gateway documents ({@link GatewayLimits}), the setting that gives it and its unit. */
	enum Limit {
		UPSTREAM_TIMEOUT(HarnessConstants.GATEWAY_UPSTREAM_TIMEOUT_MS, "MS"),
		MAX_BODY_BYTES(HarnessConstants.GATEWAY_MAX_BODY_BYTES, "BYTES"),
		MAX_HEADER_BYTES(HarnessConstants.GATEWAY_MAX_HEADER_BYTES, "BYTES"),
		MAX_EVENT_BYTES(HarnessConstants.GATEWAY_MAX_EVENT_BYTES, "BYTES");

		final String key;

		final String unit;

		Limit(String key, String unit) {
			this.key = key;
			this.unit = unit;
		}

		/** This limit of {@code limits}: milliseconds for the timeout, bytes for the others. */
		long of(GatewayLimits limits) {
			return switch (this) {
				case UPSTREAM_TIMEOUT -> limits.upstreamTimeout().toMillis();
				case MAX_BODY_BYTES -> limits.maxBodyBytes();
				case MAX_HEADER_BYTES -> limits.maxHeaderBytes();
				case MAX_EVENT_BYTES -> limits.maxEventBytes();
			};
		}
	}

	private HarnessConfig config;
	private GatewayHeaders gatewayHeaders = GatewayHeaders.none();

	private final Map<Dialect, FaultUpstream> upstreams = new EnumMap<>(Dialect.class);

	private final Map<Dialect, GatewayUnderTest> gateways = new EnumMap<>(Dialect.class);

	private final Map<Dialect, String> unreached = new EnumMap<>(Dialect.class);

	/** The requests of the rule run in progress, seen from the threads it starts too ({@link FaultEvidenceExtension}). */
	private final InheritableThreadLocal<List<Tracked>> evidence = new InheritableThreadLocal<>();

	/** The gateway under test in front of {@code upstream} (ending in /v1), speaking {@code engine}'s dialect. */
	protected abstract GatewayUnderTest createGateway(URI upstream, Dialect engine);

	/**
	 * The dialects whose recorded wire the fault upstream speaks ({@code fixtures/wire/ENGINE/chat-text.sse} and the
	 * kit's tool call): vLLM and SGLang.
	 */
	static final List<Dialect> DIALECTS = List.of(Dialect.VLLM, Dialect.SGLANG);

	/** The engine dialects to run; all of {@link #DIALECTS} by default. */
	protected List<Dialect> engines() {
		return DIALECTS;
	}

	/** Fixed upstream port for engine {@code engine}, 0 for any free port. */
	protected int upstreamPort(Dialect engine) {
		return 0;
	}

	/** The limits the gateway documents; by default what it declares itself. */
	protected Optional<GatewayLimits> limits(GatewayUnderTest gateway) {
		return gateway.limits();
	}

	/**
	 * One limit the gateway documents: of {@link #limits}, by default; a subclass may give each on its own (a
	 * gateway that declares none, its limits from configuration).
	 */
	OptionalLong limit(GatewayUnderTest gateway, Limit limit) {
		return limits(gateway).map(limits -> OptionalLong.of(limit.of(limits))).orElse(OptionalLong.empty());
	}

	/**
	 * The configuration the run was given, read like the rungs read it: JUnit configuration parameters, then system
	 * properties. Set before {@link #engines()}, {@link #upstreamPort(Dialect)} and {@link #createGateway} are asked.
	 */
	protected HarnessConfig config() {
		return config;
	}

	/** The request headers ({@code gateway.header.*}) the gateway under test of {@code engine} is sent, then {@code own}. */
	Map<String, String> headers(Dialect engine, Map<String, String> own) {
		Map<String, String> all = new LinkedHashMap<>(gatewayHeaders.values(upstream(engine).url()));
		all.putAll(own);
		return all;
	}

	@BeforeAll
	void startUpstreamsAndGateways(HarnessConfig config) {
		this.config = config;
		this.gatewayHeaders = GatewayHeaders.of(config, System::getenv);
		for (Dialect engine : engines()) {
			FaultUpstream upstream = new FaultUpstream(engine, upstreamPort(engine));
			upstreams.put(engine, upstream);
			gateways.put(engine, createGateway(upstream.url(), engine));
			probeGateway(engine);
		}
	}

	/**
	 * Before any rule: one plain request (non-stream text) through the gateway, and one line on the console that says
	 * whether it reached the fault upstream and what the gateway answered. A gateway that did not reach its upstream has
	 * every rule of that dialect {@link RuleOutcome#NOT_JUDGED} with this line ({@link FaultEvidenceExtension}).
	 */
	private void probeGateway(Dialect engine) {
		Request request = request(Fault.TEXT, 1, false);
		FaultClient.Answer answer = send(engine, request, Map.of(), false, probeTimeout());
		boolean reached = upstream(engine).call(request.nonce()).isPresent();
		String line = "fault kit probe [" + engine + "] on " + gateway(engine).description() + ": the fault upstream "
				+ (reached ? "was reached" : "was NOT reached") + "; the gateway answered " + describe(answer);
		System.out.println(line);
		if (!reached) {
			unreached.put(engine, line);
		}
	}

	/** How long the kit's probe waits for the gateway's answer: 10 s. */
	protected Duration probeTimeout() {
		return Duration.ofSeconds(10);
	}

	/** The probe's line for {@code engine} when it did not reach the fault upstream. */
	Optional<String> unreached(Dialect engine) {
		return Optional.ofNullable(unreached.get(engine));
	}

	@AfterAll
	void stopAll() {
		gateways.values().forEach(GatewayUnderTest::close);
		upstreams.values().forEach(FaultUpstream::close);
	}

	Stream<Arguments> targets() {
		return engines().stream()
				.flatMap(e -> Stream.of("non-stream", "stream")
						.map(mode -> Arguments.of(Named.of(e.id(), e), Named.of(mode, mode))));
	}

	FaultUpstream upstream(Dialect engine) {
		return upstreams.get(engine);
	}

	GatewayUnderTest gateway(Dialect engine) {
		return gateways.get(engine);
	}

	/**
	 * The one documented limit {@code rule} holds the gateway to. Without it the rule measured nothing:
	 * PENDING_MEASUREMENT naming that limit's setting (as the launcher takes it), which fails the test where pending is
	 * not allowed ({@code -Pgpu}) and aborts it where it is.
	 */
	long requireLimit(Dialect engine, KitRule rule, Limit limit) {
		OptionalLong value = limit(gateway(engine), limit);
		if (value.isEmpty()) {
			String message = PENDING + rule.id() + " holds " + gateway(engine).description() + " to its documented " + limit.key
					+ ", and it declares none (set " + KitFlags.set(config, limit.key, limit.unit) + ", the limit the gateway documents)";
			if (config.allowPending()) {
				throw new TestAbortedException(message);
			}
			throw new PendingMeasurementError(message);
		}
		return value.getAsLong();
	}

	/** A kit chat request that carries {@code fault}'s marker. */
	static Request request(Fault fault, int n, boolean stream) {
		String nonce = UUID.randomUUID().toString();
		return new Request(fault, nonce, body(fault.marker(n, nonce), stream, 0), stream);
	}

	/** As {@link #request(Fault, int, boolean)}, its body padded to exactly {@code bytes} bytes. */
	static Request request(Fault fault, boolean stream, long bytes) {
		String nonce = UUID.randomUUID().toString();
		String unpadded = body(fault.marker(1, nonce), stream, 0);
		return new Request(fault, nonce, body(fault.marker(1, nonce), stream, (int) (bytes - unpadded.length())), stream);
	}

	private static String body(String marker, boolean stream, int padding) {
		ObjectNode body = Json.MAPPER.createObjectNode();
		body.put("model", MODEL);
		ArrayNode messages = body.putArray("messages");
		messages.addObject().put("role", "user").put("content", marker + " " + "p".repeat(Math.max(0, padding - 1)));
		ObjectNode function = body.putArray("tools").addObject().put("type", "function").putObject("function");
		function.put("name", FaultWire.toolName()).putObject("parameters").put("type", "object");
		body.put("max_tokens", 64);
		if (stream) {
			body.put("stream", true);
			body.putObject("stream_options").put("include_usage", true);
		}
		return WireJson.write(body);
	}

	/**
	 * Sends {@code request} and reads the whole answer by {@code deadline}; a gateway that never answers is an answer too.
	 * The request is evidence of the rule run in progress: it is to be served, so the fault upstream must receive it.
	 */
	FaultClient.Answer send(Dialect engine, Request request, Map<String, String> headers, boolean chunked, Duration deadline) {
		FaultClient.Answer answer = sendOverLimit(engine, request, headers, chunked, deadline);
		track(engine, request, describe(answer), delivered(answer, request.stream()));
		return answer;
	}

	/**
	 * As {@link #send}, for a request the gateway must refuse itself (over its limits; the kit's probe): no evidence of the
	 * rule run, which asks the fault upstream for nothing of it.
	 */
	FaultClient.Answer sendOverLimit(Dialect engine, Request request, Map<String, String> headers, boolean chunked, Duration deadline) {
		try (FaultClient client = FaultClient.post(gateway(engine).baseUrl(), "/chat/completions", headers(engine, headers),
				request.body().getBytes(StandardCharsets.UTF_8), chunked, 0, deadline)) {
			return client.readAll();
		}
		catch (IOException e) {
			return new FaultClient.Answer(-1, null, "", e.getMessage(), deadline.toMillis());
		}
	}

	/** {@code requests} sent at once, each on its own connection and virtual thread; their answers in the same order. */
	List<FaultClient.Answer> sendAll(Dialect engine, List<Request> requests, Duration deadline) throws InterruptedException {
		List<FaultClient.Answer> answers = new ArrayList<>(Collections.nCopies(requests.size(), null));
		List<Thread> senders = new ArrayList<>();
		for (int i = 0; i < requests.size(); i++) {
			int index = i;
			senders.add(Thread.ofVirtual().start(() -> answers.set(index, send(engine, requests.get(index), Map.of(), false, deadline))));
		}
		for (Thread sender : senders) {
			sender.join();
		}
		return answers;
	}

	/**
	 * A stream the rule opened itself and reads as it goes, with the status the gateway answered: evidence of the rule run
	 * in progress, as {@link #send}'s requests are.
	 */
	void trackStream(Dialect engine, Request request, int status) {
		track(engine, request, "a stream of status " + status + " the rule read itself", status == 200);
	}

	private void track(Dialect engine, Request request, String answered, boolean delivered) {
		List<Tracked> run = evidence.get();
		if (run != null) {
			run.add(new Tracked(engine, request, answered, delivered));
		}
	}

	/** Starts collecting the requests the rule run on this thread sends, and those of the threads it starts. */
	void beginEvidence() {
		evidence.set(Collections.synchronizedList(new ArrayList<>()));
	}

	/** The requests the rule run on this thread sent since {@link #beginEvidence()}; collecting stops. */
	List<Tracked> endEvidence() {
		List<Tracked> run = evidence.get();
		evidence.remove();
		return run == null ? List.of() : List.copyOf(run);
	}

	/** How long the kit waits for the fault upstream's record of a request the gateway has answered: 2 s. */
	static final Duration EVIDENCE_WAIT = Duration.ofSeconds(2);

	/**
	 * How long the kit waits for the fault upstream's record of a request the gateway has answered before the rule run
	 * lacks its evidence: {@link #EVIDENCE_WAIT}. The wait runs out only where the upstream never got the request (a
	 * relayed request is recorded as the upstream reads it, before it answers); a self-test whose gateway never calls its
	 * upstream shortens it.
	 */
	protected Duration evidenceWait() {
		return EVIDENCE_WAIT;
	}

	/**
	 * What a rule run that passed its checks lacks of the evidence {@code needed}, one line per request; empty when it has
	 * it all. A request the fault upstream never received lacks it; under {@link Evidence#DELIVERED}, so does one whose
	 * normal answer (a {@link Fault#TEXT} or {@link Fault#PACED} one) did not reach the client as HTTP 200 of the kind
	 * asked.
	 */
	List<String> missingEvidence(Evidence needed, List<Tracked> run) throws InterruptedException {
		if (needed == Evidence.ANSWERED) {
			return List.of();
		}
		if (run.isEmpty()) {
			return List.of("the rule sent no request through the gateway");
		}
		long deadline = System.nanoTime() + evidenceWait().toNanos();
		List<String> missing = new ArrayList<>();
		for (Tracked tracked : run) {
			Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
			if (upstream(tracked.engine()).awaitCall(tracked.request().nonce(), left).isEmpty()) {
				missing.add(tracked.request().fault().id() + " request: the fault upstream never received it; the gateway answered "
						+ tracked.answered());
			}
			else if (needed == Evidence.DELIVERED && EnumSet.of(Fault.TEXT, Fault.PACED).contains(tracked.request().fault())
					&& !tracked.delivered()) {
				missing.add(tracked.request().fault().id() + " request: the fault upstream answered it whole, the client got "
						+ tracked.answered());
			}
		}
		return missing.stream().distinct().toList();
	}

	/**
	 * Evidence before a rule judges the gateway's answer to {@code request}, a request that carries the rule's fault: the
	 * fault upstream received it. A request it never received gave the gateway no fault to handle, so the run is
	 * {@link RuleOutcome#NOT_JUDGED}, naming the request and the answer, unless that answer is a product failure in itself
	 * (a 5xx, or an HTTP 200 that is no answer of the kind asked: malformed), which the rule goes on to judge.
	 */
	void requireFaultSeen(KitRule rule, Dialect engine, String mode, Request request, FaultClient.Answer answer)
			throws InterruptedException {
		if (answer.status() < 500 && (answer.status() != 200 || delivered(answer, request.stream()))) {
			callOf(rule, engine, mode, request, evidenceWait(), describe(answer));
		}
	}

	/** As {@link #requireFaultSeen(KitRule, Dialect, String, Request, FaultClient.Answer)}, for a stream's status alone. */
	void requireFaultSeen(KitRule rule, Dialect engine, String mode, Request request, int status) throws InterruptedException {
		if (status < 500) {
			callOf(rule, engine, mode, request, evidenceWait(), "status " + status);
		}
	}

	/**
	 * The fault upstream's record of {@code request}, waiting up to {@code wait}: what the rules judge the gateway's side
	 * of a fault by. Without it the run is {@link RuleOutcome#NOT_JUDGED}: the gateway never got to see the fault.
	 */
	UpstreamCall callOf(KitRule rule, Dialect engine, String mode, Request request, Duration wait, String answered)
			throws InterruptedException {
		return upstream(engine).awaitCall(request.nonce(), wait)
				.orElseThrow(() -> new NotJudged(rule.id() + " [" + engine + " " + mode + "] on " + gateway(engine).description()
						+ ": the fault upstream never received the " + request.fault().id() + " request within " + wait.toMillis()
						+ " ms, so the gateway never saw the fault the rule judges; the gateway answered " + answered));
	}

	/** Whether {@code answer} is an answer of the kind asked: HTTP 200 with a JSON body, or a stream of events. */
	static boolean delivered(FaultClient.Answer answer, boolean stream) {
		return answer.status() == 200 && (stream ? !answer.events().isEmpty() : WireJson.read(answer.body()).isPresent());
	}

	/** Fails with the rule, the target, the gateway, what was expected and what was observed. */
	void require(boolean ok, KitRule rule, Dialect engine, String mode, String expected, Object observed) {
		if (!ok) {
			throw new AssertionFailedError(rule.id() + " [" + engine + " " + mode + "] on " + gateway(engine).description()
					+ ": expected " + expected + ", observed " + observed);
		}
	}

	static boolean stream(String mode) {
		return mode.equals("stream");
	}

	static void onlyWhenStreaming(String mode, KitRule rule, String why) {
		Assumptions.assumeTrue(stream(mode), () -> "Not applicable in non-stream mode: " + rule.id() + " " + why);
	}

	/** Whether the answer is {@code status} with an OpenAI-shaped error: {@code {"error":{"message":"..."}}}. */
	static boolean openAiError(FaultClient.Answer answer, int status) {
		if (answer.status() != status) {
			return false;
		}
		Optional<JsonNode> json = WireJson.read(answer.body());
		JsonNode message = json.map(j -> j.path("error").path("message")).orElse(null);
		return message != null && message.isTextual() && !message.asText().isBlank();
	}

	/** Whether a stream answer ends with an error frame, then no chunk, then {@code [DONE]} last. */
	static boolean errorFrameThenDone(FaultClient.Answer answer) {
		if (answer.status() != 200) {
			return false;
		}
		List<SseEvent> events = answer.events();
		int frame = -1;
		for (int i = 0; i < events.size(); i++) {
			if (events.get(i).isError()) {
				frame = i;
			}
		}
		if (frame < 0 || events.isEmpty() || !events.getLast().isDone()) {
			return false;
		}
		return events.subList(frame + 1, events.size() - 1)
				.stream()
				.noneMatch(e -> e.kind() == SseEvent.Kind.DATA && e.json().map(j -> j.has("choices")).orElse(false));
	}

	/** A short account of an answer for failure messages. */
	static String describe(FaultClient.Answer answer) {
		if (answer.status() < 0) {
			return "no answer (" + answer.broke() + ") after " + answer.millis() + " ms";
		}
		String body = answer.body().length() > 300
				? answer.body().substring(0, 150) + " ... " + answer.body().substring(answer.body().length() - 150)
				: answer.body();
		return "status " + answer.status() + " after " + answer.millis() + " ms"
				+ (answer.broke() == null ? "" : " (" + answer.broke() + ")")
				+ ": " + body.replace("\n", "\\n");
	}

	/** One kit request: its fault, its nonce (how the upstream finds it), its body, and whether it asks for a stream. */
	record Request(Fault fault, String nonce, String body, boolean stream) {
	}

	/** A request a rule run sent: the dialect, the request, the answer in a few words, and whether it was delivered. */
	record Tracked(Dialect engine, Request request, String answered, boolean delivered) {
	}
}
