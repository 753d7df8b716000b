package dev.fakbattery.core.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

import dev.fakbattery.core.RunSecrets;
import dev.fakbattery.wire.HttpClients;
import dev.fakbattery.wire.SecretGuard;

import org.apiguardian.api.API;

/**
 * A server process the harness starts from a configured command template ({@code gateway.cmd},
 * {@code engine.cmd}): run with {@code /bin/sh -c}, its output (stdout and stderr) in a log file, each line redacted
 * by the {@link SecretGuard} it is given ({@code [REDACTED api.key.env]}; the JVM's guard when none is given),
 * health-checked until a deadline, and stopped with its children when closed. A start that fails
 * names the configuration name, the command, what went wrong and the log, with the log's last lines.
 *
 * <p>A server is judged only once it is proved to be the one started: {@link #startOnFreePort} health-checks the
 * port only while the started process or one of its descendants holds every listening socket on it
 * ({@link PortListeners}). A free port is closed again before the child binds it, so another server may take it in
 * between; then the child fails to bind ("Address already in use") or the port is found held by another process, and
 * the start is retried on a new port, {@value #START_ATTEMPTS} times at most. The squatter is never sent a request.
 *
 * <p>A started process does not outlive the JVM that started it when that JVM exits in an orderly way (its tests
 * finish, {@code System.exit}, or SIGTERM/SIGINT, as Surefire and a user's Ctrl-C send): a shutdown hook stops every
 * one still running, with its children (a {@code /bin/sh -c} wrapper, {@code nice}, {@code taskset} and the server under
 * them). A JVM killed with SIGKILL runs no hook; the {@link Reaper}, a small JVM watching for the end of this one, then
 * stops them with their children within seconds.
 *
 * <pre>
 * ManagedProcess engine = ManagedProcess.startOnFreePort("engine.cmd", port -&gt; "llama-server --port " + port + " ...",
 *         port -&gt; logDir.resolve("engine-" + port + ".log"),
 *         port -&gt; List.of(URI.create("http://127.0.0.1:" + port + "/health")), Duration.ofSeconds(120));
 * URI root = URI.create("http://127.0.0.1:" + engine.port());
 * </pre>
 *
 * @since 0.2
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class ManagedProcess implements AutoCloseable {

	private static final int TAIL_LINES = 20;

	/** How many ports a start tries when the port it was given turns out to be taken: {@value}. */
	public static final int START_ATTEMPTS = 3;

	private final String name;

	private final String command;

	private final Path log;

	private final Process process;

	private final int port;

	private final LogPump pump;

	private final SecretGuard guard;

	private List<String> refusedPorts = List.of();

	/** The processes started and not closed yet, which the shutdown hook stops. */
	private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

	static {
		// loaded now, not at exit: a hook that first reads ProcessTree from a jar a build has rewritten since fails
		// with NoClassDefFoundError (as a test JVM's own classes did, 2026-12-03) and stops nothing
		ProcessTree.class.getName();
		Runtime.getRuntime().addShutdownHook(new Thread(ManagedProcess::stopRunning, "managed-process-stop"));
	}

	private ManagedProcess(String name, String command, Path log, Process process, LogPump pump, SecretGuard guard, int port) {
		this.name = name;
		this.command = command;
		this.log = log;
		this.process = process;
		this.pump = pump;
		this.guard = guard;
		this.port = port;
	}

	/**
	 * Starts {@code command} for a free loopback port and waits until it is healthy on that port, proved to be the
	 * started process's; retried on a new port when another process took the one allocated (see the class comment).
	 *
	 * @param name the configuration name the command came from, for messages (for example {@code gateway.cmd})
	 * @param command the command for a port
	 * @param log the log file for a port
	 * @param probes the health URLs for a port, tried in order; one answering 200 is healthy
	 * @throws IllegalStateException when the process exits, does not get healthy within {@code timeout}, or every
	 *         attempt found its port taken; the message names the command, what happened and the log's last lines
	 * @since 0.5
	 */
	public static ManagedProcess startOnFreePort(String name, IntFunction<String> command, IntFunction<Path> log,
			IntFunction<List<URI>> probes, Duration timeout) {
		return startOnFreePort(name, command, log, probes, timeout, ManagedProcess::freePort);
	}

	/**
	 * {@link #startOnFreePort(String, IntFunction, IntFunction, IntFunction, Duration)} over ports from {@code ports}:
	 * a self-test occupies the port it hands out to show that the squatter is never judged.
	 *
	 * @since 0.5
	 */
	public static ManagedProcess startOnFreePort(String name, IntFunction<String> command, IntFunction<Path> log,
			IntFunction<List<URI>> probes, Duration timeout, IntSupplier ports) {
		return startOnFreePort(name, command, log, probes, timeout, ports, RunSecrets.jvm());
	}

	/**
	 * {@link #startOnFreePort(String, IntFunction, IntFunction, IntFunction, Duration, IntSupplier)} with its log
	 * redacted by {@code guard} (a run's: {@link RunSecrets#forRun}).
	 *
	 * @since 0.9
	 */
	public static ManagedProcess startOnFreePort(String name, IntFunction<String> command, IntFunction<Path> log,
			IntFunction<List<URI>> probes, Duration timeout, IntSupplier ports, SecretGuard guard) {
		return startOnFreePort(name, command, log, probes, timeout, ports, guard, Map.of());
	}

	/**
	 * {@link #startOnFreePort(String, IntFunction, IntFunction, IntFunction, Duration, IntSupplier, SecretGuard)}, its
	 * health probes sending {@code probeHeaders} (a gateway that routes by request headers answers nothing without them).
	 *
	 * @since 0.10
	 */
	public static ManagedProcess startOnFreePort(String name, IntFunction<String> command, IntFunction<Path> log,
			IntFunction<List<URI>> probes, Duration timeout, IntSupplier ports, SecretGuard guard, Map<String, String> probeHeaders) {
		List<String> taken = new ArrayList<>();
		for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
			int port = ports.getAsInt();
			ManagedProcess process = start(name, command.apply(port), log.apply(port), port, guard);
			try {
				process.awaitHealthy(probes.apply(port), timeout, probeHeaders);
				process.refusedPorts = List.copyOf(taken);
				return process;
			}
			catch (PortTakenException e) {
				process.close();
				taken.add("attempt " + attempt + ": " + e.getMessage());
			}
			catch (RuntimeException e) {
				process.close();
				throw e;
			}
		}
		throw new IllegalStateException(name + " could not get a port of its own in " + START_ATTEMPTS
				+ " attempts; no rule was judged against the servers found there:\n" + String.join("\n", taken));
	}

	/**
	 * Starts {@code command} with {@code /bin/sh -c}, its output going to {@code log}.
	 *
	 * @param name the configuration name the command came from, for messages (for example {@code engine.cmd})
	 * @throws UncheckedIOException naming the command when it cannot be started
	 */
	public static ManagedProcess start(String name, String command, Path log) {
		return start(name, command, log, RunSecrets.jvm());
	}

	/**
	 * {@link #start(String, String, Path)} with its log redacted by {@code guard}.
	 *
	 * @since 0.9
	 */
	public static ManagedProcess start(String name, String command, Path log, SecretGuard guard) {
		return start(name, command, log, -1, guard);
	}

	private static ManagedProcess start(String name, String command, Path log, int port, SecretGuard guard) {
		try {
			Files.createDirectories(log.toAbsolutePath().getParent());
			Process process = new ProcessBuilder(List.of("/bin/sh", "-c", command)).redirectErrorStream(true).start();
			RUNNING.add(process);
			Reaper.watch(process.toHandle());
			LogPump pump = LogPump.start(process.getInputStream(), log, guard);
			return new ManagedProcess(name, command, log, process, pump, guard, port);
		}
		catch (IOException e) {
			throw new UncheckedIOException(guard.redact(name + " could not start [" + command + "]: " + e.getMessage()), e);
		}
	}

	/**
	 * Waits until one of {@code probes} answers {@code GET} with 200, trying them in order every 200 ms; on a process
	 * started for a port, only while it holds every listening socket on that port ({@link PortListeners}).
	 *
	 * @throws IllegalStateException when the process exits first, or nothing answers within {@code timeout} (the
	 *         process is then stopped); the message names the command, the exit status or the probes and the timeout,
	 *         and the log with its last lines
	 */
	public void awaitHealthy(List<URI> probes, Duration timeout) {
		awaitHealthy(probes, timeout, Map.of());
	}

	/**
	 * {@link #awaitHealthy(List, Duration)}, each probe sending {@code headers}.
	 *
	 * @since 0.10
	 */
	public void awaitHealthy(List<URI> probes, Duration timeout, Map<String, String> headers) {
		// HTTP/1.1, as every engine and gateway speaks it: an h2c upgrade offer gets a bare 400 from some (Portkey's node server)
		HttpClient client = HttpClients.http11(Duration.ofSeconds(1));
		long deadline = System.nanoTime() + timeout.toNanos();
		try {
			while (System.nanoTime() < deadline) {
				if (!process.isAlive()) {
					String exited = "exited with status " + process.exitValue() + " before answering its health check";
					throw port > 0 && tail().contains("Address already in use")
							? new PortTakenException(failure(exited + " on port " + port).getMessage())
							: failure(exited);
				}
				if (port <= 0 || ownsPort()) {
					for (URI probe : probes) {
						if (answers(client, probe, headers) && (port <= 0 || ownsPort())) {
							return;
						}
					}
				}
				sleep(200);
			}
		}
		finally {
			client.shutdownNow();
		}
		close();
		throw failure("did not answer " + probes.stream().map(URI::toString).collect(Collectors.joining(" or ")) + " within "
				+ timeout.toSeconds() + " s");
	}

	/**
	 * Whether the started process or a descendant holds every listening socket on its port: false while nothing
	 * listens yet; a {@link PortTakenException} when another process holds one.
	 */
	private boolean ownsPort() {
		Set<Long> started = new HashSet<>();
		started.add(process.pid());
		process.descendants().forEach(child -> started.add(child.pid()));
		PortListeners.Finding finding = PortListeners.of(port, started);
		return switch (finding.owner()) {
			case NONE -> false;
			case STARTED -> true;
			case OTHER -> throw new PortTakenException(failure("found port " + port + " held by " + finding.others()
					+ ", not by the started process or its children; that server was not judged").getMessage());
			case UNKNOWN -> throw failure("cannot prove that it owns port " + port
					+ ": this platform has neither /proc/net/tcp nor lsof; install lsof");
		};
	}

	/**
	 * Why each earlier attempt of {@link #startOnFreePort} gave its port up (held by another process, or the child
	 * could not bind it); empty when the first port was its own.
	 *
	 * @since 0.5
	 */
	public List<String> refusedPorts() {
		return refusedPorts;
	}

	/** The port it was started for; -1 when started without one ({@link #start}). */
	public int port() {
		return port;
	}

	/** The port it was given was held by another process: the start is retried on another. */
	private static final class PortTakenException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		PortTakenException(String message) {
			super(message);
		}
	}

	/** A failure of this process: {@code name [command] what; log PATH:} and the log's last lines, secrets redacted. */
	public IllegalStateException failure(String what) {
		return new IllegalStateException(guard.redact(name + " [" + command + "] " + what + "; log " + log + ":\n" + tail()));
	}

	/**
	 * CPU seconds (user + system) the process and its descendants alive now have used, as the platform reports them
	 * ({@link ProcessHandle.Info#totalCpuDuration()}); {@code NaN} when it does not report the process's own. A
	 * descendant that has exited no longer counts, so read it around work the same children did.
	 *
	 * @since 0.4
	 */
	public double cpuSeconds() {
		Optional<Duration> own = process.toHandle().info().totalCpuDuration();
		if (own.isEmpty()) {
			return Double.NaN;
		}
		return own.get()
				.plus(process.descendants()
						.map(child -> child.info().totalCpuDuration().orElse(Duration.ZERO))
						.reduce(Duration.ZERO, Duration::plus))
				.toNanos() / 1e9;
	}

	/**
	 * Whether the started process ({@code /bin/sh -c} or what it exec'd) is still running.
	 *
	 * @since 0.9
	 */
	public boolean isAlive() {
		return process.isAlive();
	}

	/** The command as run, secrets redacted. */
	public String command() {
		return guard.redact(command);
	}

	/** The log file. */
	public Path log() {
		return log;
	}

	/** {@code name [command] (log PATH)}, secrets redacted. */
	public String description() {
		return guard.redact(name + " [" + command + "] (log " + log + ")");
	}

	/** Stops the process and its children: a polite signal, then after 5 s a forced one. */
	@Override
	public void close() {
		ProcessTree.stop(process, Duration.ofSeconds(5));
		RUNNING.remove(process);
		Reaper.release(process.toHandle());
		pump.awaitDrained(DRAIN);
	}

	/** How long a stopped or exited process's last output is waited for before its log is read: 2 s. */
	private static final Duration DRAIN = Duration.ofSeconds(2);

	/** The shutdown hook: every started process not closed yet, stopped with its children (a polite signal, 2 s, force). */
	static void stopRunning() {
		ProcessTree.stopAll(List.copyOf(RUNNING), SHUTDOWN_GRACE);
	}

	/** How long the shutdown hook waits for its processes to exit after the polite signal: 2 s. */
	static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(2);

	/**
	 * A free loopback port for a server that binds it later. It is taken below the kernel's ephemeral range
	 * ({@code /proc/sys/net/ipv4/ip_local_port_range}), where no port-0 bind and no outgoing connection lands meanwhile, and
	 * each call in this JVM moves on to the next port; where the range cannot be read, the kernel picks one.
	 */
	public static int freePort() {
		int low = PORT_BAND_LOW;
		for (int tries = 0; low > 0 && tries < PORT_BAND; tries++) {
			int port = low + Math.floorMod(NEXT_PORT.getAndIncrement(), PORT_BAND);
			try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
				return socket.getLocalPort();
			}
			catch (IOException taken) {
				// in use: the next one
			}
		}
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException e) {
			throw new UncheckedIOException("no free loopback port: " + e.getMessage(), e);
		}
	}

	/** How many ports below the ephemeral range {@link #freePort()} hands out. */
	private static final int PORT_BAND = 8000;

	private static final int PORT_BAND_LOW = portBandLow();

	private static final AtomicInteger NEXT_PORT = new AtomicInteger(
			(int) (ProcessHandle.current().pid() * 7919 % PORT_BAND));

	private static int portBandLow() {
		try {
			String[] range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+");
			int low = Integer.parseInt(range[0]) - PORT_BAND;
			return low >= 1024 ? low : 0;
		}
		catch (IOException | RuntimeException unreadable) {
			return 0;
		}
	}

	private static boolean answers(HttpClient client, URI url, Map<String, String> headers) {
		try {
			HttpRequest.Builder builder = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).GET();
			headers.forEach(builder::header);
			HttpRequest request = builder.build();
			return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
		}
		catch (IOException e) {
			return false;
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private String tail() {
		if (!process.isAlive()) {
			pump.awaitDrained(DRAIN);
		}
		try {
			List<String> lines = Files.readAllLines(log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
		}
		catch (IOException e) {
			return "(log unreadable: " + e.getMessage() + ")";
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
