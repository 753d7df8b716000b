package dev.fakbattery.engine;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.EngineDoubleMarker;

/**
 * An OpenAI-compatible engine double on loopback that speaks the vLLM or SGLang wire dialect: the upstream a gateway
 * is tested and benchmarked against without a GPU.
 *
 * <h2>Creation</h2>
 * <pre>
 * try (EngineDouble engine = EngineDouble.builder().dialect(Dialect.VLLM).timing(TimingModel.instant()).start()) {
 *     URI chat = URI.create(engine.baseUrl() + "/chat/completions");
 *     ...
 * }
 * </pre>
 * The server binds {@code 127.0.0.1} (port 0 picks a free port) and serves each request on a virtual thread. Streams
 * use chunked encoding with one flush per SSE event and {@code TCP_NODELAY}.
 *
 * <h2>Behaviour</h2>
 * Text is seeded (same seed and request, same bytes apart from ids and timestamps); tool calls follow the
 * {@code CALL name {json}} directives of the last user message (see {@code README.md}); token timing follows the
 * {@link TimingModel}; faults come from the {@value Fault#HEADER} header or {@link #nextFault(Fault)}.
 *
 * <h2>Observation</h2>
 * {@link #schedulingLag()} reports how late the double's own emissions were; {@link #recordedRequests()} what it
 * received; the counters what it did.
 *
 * @since 0.1
 */
public final class EngineDouble implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor;

	/**
	 * The admin path that reads the double's scheduling lag as JSON ({@code count, p50_us, p99_us, max_us}); a
	 * {@code POST} to it plus {@code /reset} clears it. A double in another process is judged through it.
	 */
	public static final String LAG_PATH = "/admin/scheduling-lag";

	/** The dialects the double speaks. */
	public static final java.util.List<Dialect> DIALECTS = java.util.List.of(Dialect.VLLM, Dialect.SGLANG);

	private final Dialect dialect;

	private final String model;

	private final SchedulerState engine;

	private final ChatEndpoint chat;

	private final RequestLog log;

	private EngineDouble(Builder builder) throws IOException {
		// read once when the JDK's HTTP server classes load: without it Nagle holds back small SSE chunks
		System.setProperty("sun.net.httpserver.nodelay", "true");
		// also read once: past 200 idle keep-alive connections (the JDK default) the server closes them, and a client
		// whose pool still holds one sees its next request go unanswered and sends it again on a new connection (the
		// reference gateway's upstream client did, hundreds of times a minute at 1,000 requests/s after a burst)
		if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
			System.setProperty("sun.net.httpserver.maxIdleConnections", "4096");
		}
		this.dialect = builder.dialect;
		this.model = builder.model;
		this.engine = new SchedulerState(builder.timing, new Pacer(builder.spin.toNanos()), new LagRecorder(), new EngineCounters());
		this.log = new RequestLog(builder.recordLimit);
		EngineIdentity identity = new EngineIdentity(builder.model, builder.version(), builder.maxModelLen,
				System.currentTimeMillis() / 1000);
		Wire wire = Wire.of(builder.dialect, identity);
		CompletionPlanner planner = new CompletionPlanner(builder.seed, builder.completionTokens);
		this.chat = new ChatEndpoint(wire, engine, planner);
		Router router = new Router(log).route("/v1/chat/completions", Set.of("POST"), chat);
		new InfoEndpoints(builder.dialect, wire, identity, engine.counters()).register(router);
		LagEndpoint.register(router, this);
		// platform threads: a parked platform thread wakes on its own timer, a virtual one waits for a free carrier,
		// which on 2 shared cores adds milliseconds of scheduling lag to the double's emissions
		this.executor = Executors.newCachedThreadPool(Thread.ofPlatform().name("engine-double-", 0).daemon(true).factory());
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), builder.port), 256);
		server.createContext("/", router);
		server.setExecutor(executor);
		server.start();
		try {
			Warmup.run(server, wire, planner, builder.model);
		}
		catch (IOException | RuntimeException e) {
			close();
			throw e;
		}
	}

	/** A builder with the defaults: vLLM, {@code Qwen/Qwen2.5-7B-Instruct}, port 0, seed 0, {@link TimingModel#defaults()}. */
	public static Builder builder() {
		return new Builder();
	}

	/** The bound port. */
	public int port() {
		return server.getAddress().getPort();
	}

	/** {@code http://127.0.0.1:PORT/v1}, the base URL an OpenAI client is given. */
	public String baseUrl() {
		return rootUrl() + "/v1";
	}

	/** {@code http://127.0.0.1:PORT}, where {@code /health}, {@code /metrics} and the admin endpoints live. */
	public String rootUrl() {
		return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + port();
	}

	/** The dialect this double speaks. */
	public Dialect dialect() {
		return dialect;
	}

	/** The served model name. */
	public String model() {
		return model;
	}

	/** Queues a fault for the next chat request that carries no {@value Fault#HEADER} header; each is used once. */
	public void nextFault(Fault fault) {
		chat.enqueue(Objects.requireNonNull(fault, "fault"));
	}

	/** Lag of the double's own emissions since the last {@link #resetStats()}. */
	public LagStats schedulingLag() {
		return engine.lag().snapshot();
	}

	/** Clears the scheduling-lag histogram, for example after a warm-up. Engine counters keep counting. */
	public void resetStats() {
		engine.lag().reset();
	}

	/** Chat-completion requests received, faulted and rejected ones included. */
	public long requestCount() {
		return engine.counters().chatRequests.sum();
	}

	/** Generations in flight, streamed or not. */
	public int activeStreams() {
		return engine.counters().active.get();
	}

	/** Generations that ended because the client went away (a write failed). */
	public long clientDisconnects() {
		return engine.counters().clientDisconnects.sum();
	}

	/** Calls of the dialect's cache-reset endpoint ({@code /reset_prefix_cache} or {@code /flush_cache}). */
	public long resetCount() {
		return engine.counters().resets.sum();
	}

	/** The most recent requests of any path, oldest first. */
	public List<RecordedRequest> recordedRequests() {
		return log.all();
	}

	/** The most recent request of any path. */
	public Optional<RecordedRequest> lastRequest() {
		return log.last(null);
	}

	/** The most recent request to {@code path}, for example {@code /v1/chat/completions}. */
	public Optional<RecordedRequest> lastRequest(String path) {
		return log.last(path);
	}

	/** Stops listening, drops open connections and interrupts running generations. */
	@Override
	public void close() {
		server.stop(0);
		executor.shutdownNow();
		try {
			executor.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Configuration of an {@link EngineDouble}; {@link #start()} binds the port.
	 *
	 * @since 0.1
	 */
	public static final class Builder {

		private Dialect dialect = Dialect.VLLM;

		private String model = "Qwen/Qwen2.5-7B-Instruct";

		private int port;

		private long seed;

		private TimingModel timing = TimingModel.defaults();

		private int completionTokens = 16;

		private int maxModelLen = 32768;

		private String version;

		private int recordLimit = 64;

		private Duration spin = Duration.ZERO;

		private Builder() {
		}

		/**
		 * The wire dialect (default {@link Dialect#VLLM}).
		 *
		 * @throws IllegalArgumentException for a dialect the double does not speak ({@link #DIALECTS})
		 */
		public Builder dialect(Dialect value) {
			if (!DIALECTS.contains(Objects.requireNonNull(value, "dialect"))) {
				throw new IllegalArgumentException("the engine double speaks " + DIALECTS + ", not " + value
						+ ": run the real engine (for llama.cpp, llama-server with -Pllamacpp or -Dengine.cmd)");
			}
			this.dialect = value;
			return this;
		}

		/** Served model name; vLLM answers 404 for any other, SGLang echoes whatever the request says. */
		public Builder model(String value) {
			this.model = Objects.requireNonNull(value, "model");
			return this;
		}

		/** Port on 127.0.0.1; 0 picks a free one. */
		public Builder port(int value) {
			if (value < 0 || value > 65535) {
				throw new IllegalArgumentException("port must be 0..65535, was " + value);
			}
			this.port = value;
			return this;
		}

		/** Seed of the answer text and ITL jitter (default 0). */
		public Builder seed(long value) {
			this.seed = value;
			return this;
		}

		/** When tokens are due (default {@link TimingModel#defaults()}). */
		public Builder timing(TimingModel value) {
			this.timing = Objects.requireNonNull(value, "timing");
			return this;
		}

		/** Content tokens of an answer when the request sets no {@code max_tokens} (an EOS token follows). */
		public Builder completionTokens(int value) {
			if (value < 1) {
				throw new IllegalArgumentException("completionTokens must be >= 1, was " + value);
			}
			this.completionTokens = value;
			return this;
		}

		/** Context length for the length checks and the model card. */
		public Builder maxModelLen(int value) {
			if (value < 2) {
				throw new IllegalArgumentException("maxModelLen must be >= 2, was " + value);
			}
			this.maxModelLen = value;
			return this;
		}

		/** Engine version for {@code /version}; defaults to 0.29.0 (vLLM) or 0.5.20 (SGLang). */
		public Builder version(String value) {
			this.version = Objects.requireNonNull(value, "version");
			return this;
		}

		/** How many received requests {@link EngineDouble#recordedRequests()} keeps. */
		public Builder recordLimit(int value) {
			if (value < 1) {
				throw new IllegalArgumentException("recordLimit must be >= 1, was " + value);
			}
			this.recordLimit = value;
			return this;
		}

		/**
		 * How long before a deadline the double stops parking and spins (default 0). Spinning lowers the lag of a
		 * few streams at the cost of CPU; on a small machine it starves other streams.
		 */
		public Builder spin(Duration value) {
			if (value.isNegative()) {
				throw new IllegalArgumentException("spin must not be negative, was " + value);
			}
			this.spin = value;
			return this;
		}

		/** Binds the port and starts serving. */
		public EngineDouble start() throws IOException {
			return new EngineDouble(this);
		}

		TimingModel timing() {
			return timing;
		}

		Duration spin() {
			return spin;
		}

		private String version() {
			return version != null ? version : (dialect == Dialect.VLLM ? "0.29.0" : "0.5.20") + EngineDoubleMarker.SUFFIX;
		}
	}
}
