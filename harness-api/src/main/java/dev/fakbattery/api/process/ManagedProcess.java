package dev.fakbattery.api.process;

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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A server process the harness starts from a configured command template ({@code gateway.cmd},
 * {@code engine.cmd}): run with {@code /bin/sh -c}, its output (stdout and stderr) in a log file,
 * health-checked until a deadline, and stopped with its children when closed. A start that fails
 * names the configuration name, the command, what went wrong and the log, with the log's last lines.
 *
 * <pre>
 * int port = ManagedProcess.freePort();
 * ManagedProcess engine = ManagedProcess.start("engine.cmd", "llama-server --port " + port + " ...", logDir.resolve("engine-" + port + ".log"));
 * engine.awaitHealthy(List.of(URI.create(root + "/health"), URI.create(root + "/v1/models")), Duration.ofSeconds(120));
 * </pre>
 *
 * @since 0.2
 */
public final class ManagedProcess implements AutoCloseable {

	private static final int TAIL_LINES = 20;

	private final String name;

	private final String command;

	private final Path log;

	private final Process process;

	private ManagedProcess(String name, String command, Path log, Process process) {
		this.name = name;
		this.command = command;
		this.log = log;
		this.process = process;
	}

	/**
	 * Starts {@code command} with {@code /bin/sh -c}, its output going to {@code log}.
	 *
	 * @param name the configuration name the command came from, for messages (for example {@code engine.cmd})
	 * @throws UncheckedIOException naming the command when it cannot be started
	 */
	public static ManagedProcess start(String name, String command, Path log) {
		try {
			Files.createDirectories(log.toAbsolutePath().getParent());
			Process process = new ProcessBuilder(List.of("/bin/sh", "-c", command)).redirectErrorStream(true)
				.redirectOutput(log.toFile()).start();
			return new ManagedProcess(name, command, log, process);
		}
		catch (IOException e) {
			throw new UncheckedIOException(name + " could not start [" + command + "]: " + e.getMessage(), e);
		}
	}

	/**
	 * Waits until one of {@code probes} answers {@code GET} with 200, trying them in order every 200 ms.
	 *
	 * @throws IllegalStateException when the process exits first, or nothing answers within {@code timeout} (the
	 *         process is then stopped); the message names the command, the exit status or the probes and the timeout,
	 *         and the log with its last lines
	 */
	public void awaitHealthy(List<URI> probes, Duration timeout) {
		HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
		long deadline = System.nanoTime() + timeout.toNanos();
		try {
			while (System.nanoTime() < deadline) {
				if (!process.isAlive()) {
					throw failure("exited with status " + process.exitValue() + " before answering its health check");
				}
				for (URI probe : probes) {
					if (answers(client, probe)) {
						return;
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

	/** A failure of this process: {@code name [command] what; log PATH:} and the log's last lines. */
	public IllegalStateException failure(String what) {
		return new IllegalStateException(name + " [" + command + "] " + what + "; log " + log + ":\n" + tail());
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
		return own.get().plus(process.descendants().map(child -> child.info().totalCpuDuration().orElse(Duration.ZERO))
			.reduce(Duration.ZERO, Duration::plus)).toNanos() / 1e9;
	}

	/** The command as run. */
	public String command() {
		return command;
	}

	/** The log file. */
	public Path log() {
		return log;
	}

	/** {@code name [command] (log PATH)}. */
	public String description() {
		return name + " [" + command + "] (log " + log + ")";
	}

	/** Stops the process and its children: a polite signal, then after 5 s a forced one. */
	@Override
	public void close() {
		process.descendants().forEach(ProcessHandle::destroy);
		process.destroy();
		try {
			if (!process.waitFor(5, TimeUnit.SECONDS)) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	/** A free loopback port. */
	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException e) {
			throw new UncheckedIOException("no free loopback port: " + e.getMessage(), e);
		}
	}

	private static boolean answers(HttpClient client, URI url) {
		try {
			HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).GET().build();
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
