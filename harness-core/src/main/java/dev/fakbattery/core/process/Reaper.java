package dev.fakbattery.core.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

/**
 * What stops the servers and containers a harness JVM started when that JVM is killed with SIGKILL (the OOM killer, a
 * CI runner's hard timeout, {@code kill -9}) and so runs no shutdown hook: a small JVM of its own, started the first
 * time something is watched, that reads the harness JVM's instructions on its standard input. When that input ends
 * (the harness JVM is gone, however it ended: the kernel closes the pipe) it stops every process still watched, with
 * its descendants (SIGTERM, 5 s, SIGKILL; a pid whose start time no longer matches is another process and is left
 * alone), removes every container still watched through the Docker API (a Unix socket, or plain TCP: a TLS Docker
 * host is not spoken to), and exits.
 *
 * <p>On an orderly exit the harness's own shutdown hooks have stopped everything first; the reaper then finds nothing
 * left to do. It is what Testcontainers' Ryuk is for containers, without an image to pull, and it watches processes
 * too. Where it cannot start (no {@code java} under {@code java.home}, no class path to give it), one line on the
 * standard error says so and the harness goes on: its shutdown hooks still cover every exit but SIGKILL.
 *
 * @since 0.8
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.8")
public final class Reaper {

	/** How long a watched process is given after SIGTERM before SIGKILL: 5 s. */
	static final Duration GRACE = Duration.ofSeconds(5);

	private static PrintStream channel;

	private static boolean started;

	private Reaper() {
	}

	/** Stops {@code process} and its descendants if this JVM dies without stopping it. */
	public static void watch(ProcessHandle process) {
		send("+p " + process.pid() + " " + startMillis(process));
	}

	/** Forgets {@code process}: it was stopped. */
	public static void release(ProcessHandle process) {
		send("-p " + process.pid());
	}

	/**
	 * Removes every container labelled {@code label=value} (forcibly, with its anonymous volumes) through the Docker
	 * engine at {@code dockerHost} ({@code unix:///var/run/docker.sock}, {@code tcp://host:2375}) if this JVM dies
	 * first: watched by its label before it is created, a container whose start this JVM was waiting for is removed too.
	 */
	public static void watchContainers(URI dockerHost, String label, String value) {
		send("+c " + label + "=" + value + " " + dockerHost);
	}

	/** Forgets the containers labelled {@code label=value}: they were removed. */
	public static void releaseContainers(String label, String value) {
		send("-c " + label + "=" + value);
	}

	private static synchronized void send(String line) {
		if (!started) {
			started = true;
			channel = start().orElse(null);
		}
		if (channel != null) {
			channel.println(line);
			if (channel.checkError()) {
				System.err.println("[reaper] gone (" + line + " not sent): a SIGKILLed JVM would leave its servers running");
				channel = null;
			}
		}
	}

	private static Optional<PrintStream> start() {
		Path java = Path.of(ChildJava.executable());
		try {
			var source = Reaper.class.getProtectionDomain().getCodeSource();
			if (source == null) {
				throw new IOException("no class path for " + Reaper.class.getName());
			}
			String classPath = Path.of(source.getLocation().toURI()).toString();
			Process reaper = new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
					"-Xmx32m", "-cp", classPath, Reaper.class.getName(), Long.toString(ProcessHandle.current().pid()))
					.redirectOutput(ProcessBuilder.Redirect.DISCARD)
					.redirectError(ProcessBuilder.Redirect.DISCARD)
					.start();
			return Optional.of(new PrintStream(reaper.getOutputStream(), true, StandardCharsets.UTF_8));
		}
		catch (IOException | java.net.URISyntaxException | RuntimeException e) {
			System.err.println("[reaper] could not start (" + e.getMessage()
					+ "): a SIGKILLed JVM would leave its servers running; every other exit still stops them");
			return Optional.empty();
		}
	}

	private static String startMillis(ProcessHandle process) {
		return process.info().startInstant().map(instant -> Long.toString(instant.toEpochMilli())).orElse("-");
	}

	/**
	 * The reaper itself: reads {@code +p PID START}, {@code -p PID}, {@code +c LABEL=VALUE DOCKER_HOST} and
	 * {@code -c LABEL=VALUE} lines
	 * until its input ends, then stops what is still watched. Its one argument, the harness JVM's pid, is only there
	 * for {@code ps}.
	 */
	public static void main(String[] args) throws IOException {
		reap(System.in);
	}

	/** Reads instructions from {@code in} until it ends, then stops what is still watched; returns what it stopped. */
	static List<String> reap(InputStream in) throws IOException {
		Map<Long, String> processes = new LinkedHashMap<>();
		Map<String, URI> containers = new LinkedHashMap<>();
		try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
			for (String line; (line = reader.readLine()) != null;) {
				String[] parts = line.split(" ");
				switch (parts[0]) {
					case "+p" -> processes.put(Long.parseLong(parts[1]), parts[2]);
					case "-p" -> processes.remove(Long.parseLong(parts[1]));
					case "+c" -> containers.put(parts[1], URI.create(parts[2]));
					case "-c" -> containers.remove(parts[1]);
					default -> {
						// an instruction this reaper does not know: ignored
					}
				}
			}
		}
		List<String> stopped = new ArrayList<>(stopProcesses(processes));
		containers.forEach((label, host) -> stopped.addAll(removeContainers(host, label)));
		return stopped;
	}

	private static List<String> stopProcesses(Map<Long, String> watched) {
		List<ProcessHandle> alive = new ArrayList<>();
		watched.forEach((pid, start) -> ProcessHandle.of(pid)
				.filter(handle -> handle.isAlive() && (start.equals("-") || start.equals(startMillis(handle))))
				.ifPresent(handle -> {
					handle.descendants().forEach(alive::add);
					alive.add(handle);
				}));
		alive.forEach(ProcessHandle::destroy);
		long deadline = System.nanoTime() + GRACE.toNanos();
		// a zombie awaiting this machine's init has exited: ProcessTree.running does not wait out the grace for it
		while (alive.stream().anyMatch(ProcessTree::running) && System.nanoTime() < deadline) {
			sleep(50);
		}
		alive.stream().filter(ProcessTree::running).forEach(ProcessHandle::destroyForcibly);
		return alive.stream().map(handle -> "process " + handle.pid()).toList();
	}

	private static final Pattern ID = Pattern.compile("\"Id\"\\s*:\\s*\"([0-9a-f]{12,64})\"");

	/**
	 * Lists the containers labelled {@code label} ({@code KEY=VALUE}) and removes each with {@code DELETE
	 * /containers/ID?force=true&v=true}; returns {@code container ID: STATUS LINE} for each, or why none was removed.
	 */
	static List<String> removeContainers(URI host, String label) {
		try {
			String filters = URLEncoder.encode("{\"label\":[\"" + label.replace("\"", "") + "\"]}", StandardCharsets.UTF_8);
			String listing = request(host, "GET", "/containers/json?all=true&filters=" + filters);
			if (!listing.startsWith("HTTP/1.0 200") && !listing.startsWith("HTTP/1.1 200")) {
				return List.of("containers " + label + ": not listed: " + listing.lines().findFirst().orElse("no answer"));
			}
			List<String> removed = new ArrayList<>();
			Matcher ids = ID.matcher(listing);
			while (ids.find()) {
				String id = ids.group(1);
				removed.add("container " + id.substring(0, 12) + ": "
						+ request(host, "DELETE", "/containers/" + id + "?force=true&v=true").lines().findFirst().orElse("no answer"));
			}
			return removed;
		}
		catch (IOException | RuntimeException e) {
			return List.of("containers " + label + ": not removed: " + e);
		}
	}

	/** One HTTP/1.0 request to the Docker engine; the whole answer, status line first. */
	private static String request(URI host, String method, String path) throws IOException {
		String request = method + " " + path + " HTTP/1.0\r\nHost: docker\r\n\r\n";
		return switch (host.getScheme()) {
			case "unix" -> {
				try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
					channel.connect(UnixDomainSocketAddress.of(Path.of(host.getPath())));
					channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
					yield new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
				}
			}
			case "tcp", "http" -> {
				try (Socket socket = new Socket()) {
					socket.connect(new InetSocketAddress(host.getHost(), host.getPort()), 5_000);
					socket.setSoTimeout(30_000);
					socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
					yield new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
				}
			}
			default -> throw new IOException("the reaper speaks to unix:// and tcp:// Docker hosts, not " + host.getScheme());
		};
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
