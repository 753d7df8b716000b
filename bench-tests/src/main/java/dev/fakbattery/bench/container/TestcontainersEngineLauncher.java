package dev.fakbattery.bench.container;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerCmd;

import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RunSecrets;
import dev.fakbattery.core.process.Reaper;
import dev.fakbattery.wire.SecretGuard;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.output.Slf4jLogConsumer;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * Starts the engine with Testcontainers: the image checked on the Docker engine first (present, else pulled within
 * {@code engine.pull.timeout.sec}, else a failure at once), and likewise the images Testcontainers itself would run
 * (its reaper; its tiny image when it must find the Docker host's address from inside a container); for vLLM and SGLang
 * all GPUs and 16 GiB of shared memory; port 8000 published on a free host port; the labels {@value #LABEL} (the
 * checkout, see {@link #scope()}) so that {@link ContainerLeftovers} can prove none is left; the engine's output
 * logged under {@value #ENGINE_LOGGER} and written to {@code experiments.dir/logs/}, a file per container; and a wait
 * for {@code GET /health} to answer 200 within the spec's startup timeout that ends at once when the container
 * exits. A failed start names the cause, the container's exit code and its last {@value #TAIL_LINES} log lines,
 * and removes the container.
 *
 * <p>The Testcontainers container object is never logged or printed: its {@code toString} would
 * show the environment, which may hold the Hugging Face token.
 */
final class TestcontainersEngineLauncher implements EngineLauncher {

	static final String ENGINE_LOGGER = "dev.fakbattery.bench.container.engine";

	/** The label on every container the harness starts; its value is {@link #scope()}. */
	static final String LABEL = "dev.fakbattery.harness";

	/** The system property with the checkout's root, set by the build for the tests ({@code harness.root.dir}). */
	static final String ROOT_DIR = "harness.root.dir";

	/** The label that tells one start's container from another's. */
	static final String START_LABEL = "dev.fakbattery.start";

	private static final Logger LOG = LoggerFactory.getLogger(TestcontainersEngineLauncher.class);

	/** Log lines kept for a failure message. */
	static final int TAIL_LINES = 20;

	private static final AtomicInteger SEQUENCE = new AtomicInteger();

	private final Function<String, String> environment;

	TestcontainersEngineLauncher() {
		this(System::getenv);
	}

	/** A launcher reading {@value DockerImages#RYUK_DISABLED} from {@code environment}, for self-tests. */
	TestcontainersEngineLauncher(Function<String, String> environment) {
		this.environment = environment;
	}

	@Override
	public RunningEngine start(EngineContainerSpec spec, Map<String, String> env) {
		DockerClient docker = DockerImages.client();
		String imageId = DockerImages.require(docker, spec.image(), spec.pullTimeout(), "engine.image",
				"check the tag, build the image locally (docker build, or -Pllamacpp,container for llama.cpp) or docker load it, "
						+ "or raise -Dengine.pull.timeout.sec (now " + spec.pullTimeout().toSeconds() + ") on a slow registry");
		DockerImages.requireReaper(docker, environment, spec.pullTimeout());
		DockerImages.requireHostAddress(docker, environment, spec.pullTimeout());
		LogFile log = LogFile.open(spec, guard(env));
		String start = java.util.UUID.randomUUID().toString();
		GenericContainer<?> container = container(spec, env).withLogConsumer(log).withLabel(START_LABEL, start);
		ExitWatch exit = ExitWatch.watch(docker, start);
		// removed by the reaper if this JVM is SIGKILLed before it stops the container, even in the middle of its start
		Reaper.watchContainers(DockerClientFactory.instance().getTransportConfig().getDockerHost(), START_LABEL, start);
		try {
			container.start();
			container.getLogConsumers()
					.stream()
					.filter(StartupConsole.class::isInstance)
					.map(StartupConsole.class::cast)
					.forEach(StartupConsole::healthy);
			LOG.info("engine container healthy; from now on its output goes to {} only", log.path);
		}
		catch (RuntimeException e) {
			String why = failure(e, start, log, exit);
			container.stop();
			remove(start);
			Reaper.releaseContainers(START_LABEL, start);
			log.close();
			LOG.debug("engine container start failed", e);
			throw new ContainerStartException(log.guard.redact(why + " (log: " + log.path + ")"));
		}
		finally {
			exit.close();
		}
		return new Started(container, baseUrl(container.getHost(), container.getMappedPort(spec.port())), spec.image(), imageId, log,
				start);
	}

	/** The variable Hugging Face's hub library reads the token's file from when {@code HF_TOKEN} is unset. */
	static final String HF_TOKEN_PATH = "HF_TOKEN_PATH";

	/** Where the token is copied inside the container, before it starts; only {@link #HF_TOKEN_PATH} names it. */
	static final String TOKEN_FILE = "/run/secrets/hf_token";

	/**
	 * The configured, not started, container; needs no Docker. A Hugging Face token in {@code env} is copied
	 * into the container as {@value #TOKEN_FILE} and named by {@code HF_TOKEN_PATH}: it never enters the
	 * container's environment, which Testcontainers prints when a start fails.
	 */
	static GenericContainer<?> container(EngineContainerSpec spec, Map<String, String> env) {
		Logger log = LoggerFactory.getLogger(ENGINE_LOGGER);
		SecretGuard guard = guard(env);
		Map<String, String> plain = new HashMap<>(env);
		String token = plain.remove(EngineContainerSpec.HF_TOKEN);
		GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(spec.image()))
				.withExposedPorts(spec.port())
				.withEnv(plain)
				.withLabel(LABEL, scope())
				.withCommand(spec.args().toArray(String[]::new))
				.withCreateContainerCmdModifier(cmd -> customize(spec, cmd))
				.withLogConsumer(new StartupConsole(new Slf4jLogConsumer(log).withPrefix("engine"), guard))
				.waitingFor(new HealthWait(spec.port(), spec.healthPath()).withStartupTimeout(spec.startupTimeout()));
		if (spec.sharedMemoryBytes() > 0) {
			container.withSharedMemorySize(spec.sharedMemoryBytes());
		}
		if (token != null) {
			// a file, not the environment: Testcontainers logs a failed container's configuration, environment included
			container.withEnv(HF_TOKEN_PATH, TOKEN_FILE)
					.withCopyToContainer(Transferable.of(token.getBytes(StandardCharsets.UTF_8), 0444), TOKEN_FILE);
		}
		return container;
	}

	/**
	 * What the container's output is redacted of, on the console and in its log file: the JVM's API key
	 * ({@link RunSecrets#jvm()}) and the Hugging Face token handed to the container.
	 */
	static SecretGuard guard(Map<String, String> env) {
		return RunSecrets.jvm()
				.and(SecretGuard.of(HarnessConstants.ENGINE_HF_TOKEN_ENV, "the Hugging Face token ("
						+ HarnessConstants.ENGINE_HF_TOKEN_ENV + ")", env.get(EngineContainerSpec.HF_TOKEN)));
	}

	/** The device request for all GPUs (vLLM, SGLang), the CPUs ({@code engine.cpuset}) and, for SGLang, the entrypoint. */
	static void customize(EngineContainerSpec spec, CreateContainerCmd cmd) {
		if (spec.gpus()) {
			cmd.getHostConfig().withDeviceRequests(List.of(spec.deviceRequest()));
		}
		spec.cpuset().ifPresent(cpus -> cmd.getHostConfig().withCpusetCpus(cpus));
		if (!spec.entrypoint().isEmpty()) {
			cmd.withEntrypoint(spec.entrypoint());
		}
	}

	/** The value of {@value #LABEL}: the checkout's root ({@value #ROOT_DIR}), else the working directory. */
	static String scope() {
		return Path.of(System.getProperty(ROOT_DIR, System.getProperty("user.dir"))).toAbsolutePath().normalize().toString();
	}

	/** {@code http://HOST:PORT/v1}; {@code localhost} becomes {@code 127.0.0.1} so IPv6 resolution cannot miss the port. */
	static URI baseUrl(String host, int port) {
		String address = "localhost".equals(host) ? "127.0.0.1" : host.contains(":") ? "[" + host + "]" : host;
		return URI.create("http://" + address + ":" + port + "/v1");
	}

	/**
	 * What went wrong: the health wait's reason, else Testcontainers' one-line message (never its causes: they print the
	 * container's configuration, environment included); the exit code when the container stopped by itself (from Docker's
	 * events: Testcontainers removes a container whose start failed before this runs); its last log lines, from Docker
	 * by the start's own label when the container is still there, else those the log file kept.
	 */
	private static String failure(RuntimeException e, String start, LogFile log, ExitWatch exit) {
		Throwable cause = e;
		while (cause.getCause() != null && cause.getCause() != cause && !(cause instanceof HealthWaitException)) {
			cause = cause.getCause();
		}
		boolean timedOut = cause instanceof HealthWaitException wait && wait.timedOut;
		StringBuilder text = new StringBuilder(cause instanceof HealthWaitException ? cause.getMessage() : e.getMessage());
		if (!timedOut) {
			exit.code(Duration.ofSeconds(EXIT_WAIT_SEC)).ifPresent(code -> text.append("; the container exited with code ").append(code));
		}
		List<String> lines = log.tail();
		DockerClient docker = DockerImages.client();
		for (com.github.dockerjava.api.model.Container found : started(docker, start)) {
			try {
				List<String> read = logs(docker, found.getId());
				lines = read.isEmpty() ? lines : read;
			}
			catch (RuntimeException gone) {
				// removed meanwhile: the lines kept
			}
		}
		text.append(
				lines.isEmpty() ? "; it logged nothing" : "; its last " + lines.size() + " log lines:\n  " + String.join("\n  ", lines));
		return text.toString();
	}

	/** Seconds a failed start waits for Docker's word on how the container ended; it has nearly always come already. */
	static final int EXIT_WAIT_SEC = 5;

	/**
	 * Docker's {@code kill} and {@code die} events of one start ({@value #START_LABEL}), from before the container is
	 * created: the exit code of a container that stopped by itself ({@code die} with no {@code kill} before it), none
	 * for one that was killed (a health timeout, Testcontainers' stop).
	 */
	static final class ExitWatch implements java.io.Closeable {

		private final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);
		private final java.util.concurrent.atomic.AtomicReference<String> code = new java.util.concurrent.atomic.AtomicReference<>();
		private boolean killed;
		private volatile java.io.Closeable subscription = () -> {
		};

		/** Subscribes to the start's events; the stream replays the last second, so none is lost while it connects. */
		static ExitWatch watch(DockerClient docker, String start) {
			ExitWatch watch = new ExitWatch();
			watch.subscription = docker.eventsCmd()
					.withLabelFilter(Map.of(START_LABEL, start))
					.withEventFilter("kill", "die")
					.withSince(String.valueOf(Instant.now().getEpochSecond() - 1))
					.exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Event>() {
						@Override
						public void onNext(com.github.dockerjava.api.model.Event event) {
							watch.event(event.getAction() != null ? event.getAction() : event.getStatus(),
									event.getActor() == null || event.getActor().getAttributes() == null
											? Map.of()
											: event.getActor().getAttributes());
						}
					});
			return watch;
		}

		/** One event: {@code kill} (nothing to report) or {@code die} with its {@code exitCode} attribute. */
		synchronized void event(String action, Map<String, String> attributes) {
			if ("kill".equals(action)) {
				killed = true;
			}
			else if ("die".equals(action) && !killed) {
				code.compareAndSet(null, attributes.getOrDefault("exitCode", "unknown"));
			}
			else {
				return;
			}
			ended.countDown();
		}

		/** The exit code of a container that stopped by itself, waiting at most {@code wait} for Docker's events. */
		java.util.Optional<String> code(Duration wait) {
			try {
				ended.await(wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
			return ended.getCount() == 0 ? java.util.Optional.ofNullable(code.get()) : java.util.Optional.empty();
		}

		@Override
		public void close() {
			try {
				subscription.close();
			}
			catch (IOException e) {
				// the stream is gone either way
			}
		}
	}

	/** The containers of one start ({@value #START_LABEL}), running or not. */
	private static List<com.github.dockerjava.api.model.Container> started(DockerClient docker, String start) {
		return docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(START_LABEL, start)).exec();
	}

	/** Removes what is left of a start that failed (Testcontainers removes it too; this makes sure). */
	private static void remove(String start) {
		DockerClient docker = DockerImages.client();
		for (com.github.dockerjava.api.model.Container found : started(docker, start)) {
			try {
				docker.removeContainerCmd(found.getId()).withForce(true).withRemoveVolumes(true).exec();
			}
			catch (RuntimeException gone) {
				// removed meanwhile
			}
		}
	}

	/** The last {@value #TAIL_LINES} lines the container wrote, stdout and stderr. */
	private static List<String> logs(DockerClient docker, String id) {
		List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
		try (var callback = docker.logContainerCmd(id)
				.withStdOut(true)
				.withStdErr(true)
				.withTail(TAIL_LINES)
				.exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Frame>() {
					@Override
					public void onNext(com.github.dockerjava.api.model.Frame frame) {
						new String(frame.getPayload(), StandardCharsets.UTF_8).lines().forEach(lines::add);
					}
				})) {
			callback.awaitCompletion(10, java.util.concurrent.TimeUnit.SECONDS);
		}
		catch (IOException e) {
			// the lines read so far
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		return List.copyOf(lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
	}

	/**
	 * A container that did not start or become healthy; the message holds the cause, exit code and last log lines.
	 * Testcontainers' exception is not its cause: that one prints the container's configuration, environment included.
	 */
	static final class ContainerStartException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		ContainerStartException(String message) {
			super(message);
		}
	}

	/** The health wait's own failure: its message is the reason. */
	static final class HealthWaitException extends ContainerLaunchException {

		private static final long serialVersionUID = 1L;

		/** Whether the wait gave up on a container still running (no exit code to report). */
		final boolean timedOut;

		HealthWaitException(String message) {
			this(message, false);
		}

		HealthWaitException(String message, boolean timedOut) {
			super(message);
			this.timedOut = timedOut;
		}
	}

	/**
	 * Polls {@code GET <path>} on the mapped port every half second until it answers 200; fails when the container is
	 * no longer running (at once, not at the timeout) or when the timeout passes, naming the last answer.
	 */
	static final class HealthWait extends AbstractWaitStrategy {

		private final int port;
		private final String path;

		HealthWait(int port, String path) {
			this.port = port;
			this.path = path;
		}

		int port() {
			return port;
		}

		String path() {
			return path;
		}

		Duration timeout() {
			return startupTimeout;
		}

		@Override
		protected void waitUntilReady() {
			long deadline = System.nanoTime() + startupTimeout.toNanos();
			HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
			String last = "no answer yet";
			while (true) {
				if (!waitStrategyTarget.isRunning()) {
					// the exit code is added by failure(), from Docker's events
					throw new HealthWaitException("the container stopped before GET " + path + " answered 200 (last: " + last + ")");
				}
				URI health = URI.create("http://" + baseUrl(waitStrategyTarget.getHost(), waitStrategyTarget.getMappedPort(port))
						.getAuthority() + path);
				try {
					int status = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(5)).GET().build(),
							HttpResponse.BodyHandlers.discarding()).statusCode();
					if (status == 200) {
						return;
					}
					last = "HTTP " + status;
				}
				catch (IOException e) {
					last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage());
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					throw new HealthWaitException("interrupted while waiting for GET " + path);
				}
				if (System.nanoTime() > deadline) {
					throw new HealthWaitException("GET " + path + " did not answer 200 within " + startupTimeout.toSeconds()
							+ " s (engine.startup.timeout.sec; last: " + last + ")", true);
				}
				try {
					Thread.sleep(500);
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					throw new HealthWaitException("interrupted while waiting for GET " + path);
				}
			}
		}
	}

	/**
	 * The container's output in {@code logs/<image>-<UTC time>-<n>.log}, each line redacted by the guard, its last lines
	 * kept for a failure message.
	 */
	static final class LogFile implements Consumer<OutputFrame>, AutoCloseable {

		private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

		final Path path;
		final SecretGuard guard;
		private final Writer out;
		private final Deque<String> tail = new ArrayDeque<>();

		private LogFile(Path path, Writer out, SecretGuard guard) {
			this.path = path;
			this.out = out;
			this.guard = guard;
		}

		static LogFile open(EngineContainerSpec spec, SecretGuard guard) {
			String image = spec.image().replaceAll("[^A-Za-z0-9._-]+", "_");
			Path path = spec.logDirectory().resolve(image + "-" + STAMP.format(Instant.now()) + "-" + SEQUENCE.incrementAndGet() + ".log");
			try {
				Files.createDirectories(spec.logDirectory());
				return new LogFile(path, Files.newBufferedWriter(path, StandardCharsets.UTF_8), guard);
			}
			catch (IOException e) {
				throw new UncheckedIOException("could not write the container log " + path + ": " + e.getMessage(), e);
			}
		}

		@Override
		public synchronized void accept(OutputFrame frame) {
			String raw = frame.getUtf8StringWithoutLineEnding();
			if (frame.getType() == OutputFrame.OutputType.END || raw == null) {
				return;
			}
			String text = guard.redact(raw);
			try {
				out.write(text);
				out.write('\n');
				out.flush();
			}
			catch (IOException e) {
				// the file is a copy: the engine logger still has the line
			}
			tail.addLast(text);
			if (tail.size() > TAIL_LINES) {
				tail.removeFirst();
			}
		}

		synchronized List<String> tail() {
			return List.copyOf(tail);
		}

		@Override
		public synchronized void close() {
			try {
				out.close();
			}
			catch (IOException e) {
				// nothing left to write
			}
		}
	}

	/**
	 * The engine's output on the console until it is healthy (a model load can take minutes, and its lines are the
	 * progress); after that only the log file has it, so a battery's console keeps the rungs' own lines.
	 */
	static final class StartupConsole implements Consumer<OutputFrame> {

		private final Consumer<OutputFrame> console;
		private final SecretGuard guard;
		private volatile boolean healthy;

		StartupConsole(Consumer<OutputFrame> console, SecretGuard guard) {
			this.console = console;
			this.guard = guard;
		}

		@Override
		public void accept(OutputFrame frame) {
			if (!healthy) {
				byte[] bytes = frame.getBytes();
				byte[] redacted = bytes == null ? null : guard.redact(bytes);
				console.accept(redacted == bytes ? frame : new OutputFrame(frame.getType(), redacted));
			}
		}

		/** Stops forwarding: the engine is healthy. */
		void healthy() {
			healthy = true;
		}
	}

	private static final class Started implements RunningEngine {

		private final GenericContainer<?> container;
		private final URI baseUrl;
		private final Map<String, String> provenance = new LinkedHashMap<>();
		private final LogFile log;
		private final AtomicBoolean closed = new AtomicBoolean();
		private final String start;

		Started(GenericContainer<?> container, URI baseUrl, String image, String imageId, LogFile log, String start) {
			this.container = container;
			this.start = start;
			this.baseUrl = baseUrl;
			this.log = log;
			provenance.put("engine_launcher", "testcontainers");
			provenance.put("engine_image", image);
			provenance.put("engine_image_id", imageId);
			provenance.put("engine_container_id", container.getContainerId());
			// what Docker applied, read back: the cpuset or "all"
			String cpuset = container.getContainerInfo().getHostConfig().getCpusetCpus();
			provenance.put("engine_cpuset", cpuset == null || cpuset.isBlank() ? "all" : cpuset);
			provenance.put("engine_container_log", log.path.toString());
		}

		@Override
		public URI baseUrl() {
			return baseUrl;
		}

		@Override
		public Map<String, String> provenance() {
			return Map.copyOf(provenance);
		}

		@Override
		public void close() {
			if (closed.compareAndSet(false, true)) {
				container.stop();
				Reaper.releaseContainers(START_LABEL, start);
				log.close();
			}
		}

		@Override
		public String toString() {
			return "engine container at " + baseUrl;
		}
	}
}
