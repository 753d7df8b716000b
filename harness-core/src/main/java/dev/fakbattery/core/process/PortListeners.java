package dev.fakbattery.core.process;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.apiguardian.api.API;

/**
 * Which processes hold a listening TCP socket on a port: the proof that the server answering on a port is the one the
 * harness started, not another that took the port between its allocation and the child's bind. On Linux it reads
 * {@code /proc/net/tcp}, {@code /proc/net/tcp6} and the holders' {@code /proc/PID/fd}; elsewhere it asks
 * {@code lsof -nP -iTCP:PORT -sTCP:LISTEN -Fp}. When neither can tell, nobody is proved to own the port.
 *
 * @since 0.5
 */
@API(status = API.Status.INTERNAL, since = "0.9")
public final class PortListeners {

	private static final Path PROC = Path.of("/proc");

	private static final String LISTEN = "0A";

	private PortListeners() {
	}

	/** Who holds the listening sockets on a port, seen from the processes the harness started. */
	enum Owner {
		/** No listening socket on the port yet. */
		NONE,
		/** Every listening socket on the port is held by the started process or its descendants. */
		STARTED,
		/** A listening socket on the port is held by another process: whatever answers there is not the started one. */
		OTHER,
		/** This platform cannot tell (no {@code /proc}, no {@code lsof}). */
		UNKNOWN
	}

	/** A finding: the owner, and the other holders as {@code pid N (command)} when {@link Owner#OTHER}. */
	record Finding(Owner owner, String others) {
	}

	/**
	 * Who holds the listening sockets on {@code port} (any local address), when {@code started} are the pids of the
	 * started process and its descendants.
	 */
	static Finding of(int port, Set<Long> started) {
		return of(port, started, PROC, "lsof");
	}

	/** {@link #of(int, Set)} over another {@code /proc} and {@code lsof}, for self-tests. */
	static Finding of(int port, Set<Long> started, Path proc, String lsof) {
		if (Files.isReadable(proc.resolve("net/tcp"))) {
			return fromProc(port, started, proc);
		}
		return fromLsof(port, lsof).map(pids -> finding(pids, started, pids.stream().filter(p -> !started.contains(p)).toList()))
				.orElse(new Finding(Owner.UNKNOWN, ""));
	}

	private static Finding fromProc(int port, Set<Long> started, Path proc) {
		Set<String> sockets = sockets(port, proc).orElse(Set.of());
		if (sockets.isEmpty()) {
			return new Finding(Owner.NONE, "");
		}
		Set<String> foreign = new HashSet<>(sockets);
		for (long pid : started) {
			foreign.removeAll(held(proc.resolve(pid + "/fd"), sockets));
		}
		if (foreign.isEmpty()) {
			return new Finding(Owner.STARTED, "");
		}
		Set<Long> holders = new TreeSet<>();
		try (DirectoryStream<Path> procs = Files.newDirectoryStream(proc, p -> p.getFileName().toString().matches("\\d+"))) {
			for (Path process : procs) {
				if (!held(process.resolve("fd"), foreign).isEmpty()) {
					holders.add(Long.parseLong(process.getFileName().toString()));
				}
			}
		}
		catch (IOException e) {
			// /proc vanished under us: the holder stays unnamed
		}
		return new Finding(Owner.OTHER, holders.isEmpty()
				? "a process this user cannot see"
				: String.join(", ", holders.stream().map(PortListeners::describe).toList()));
	}

	private static Finding finding(Set<Long> pids, Set<Long> started, List<Long> others) {
		if (pids.isEmpty()) {
			return new Finding(Owner.NONE, "");
		}
		return others.isEmpty()
				? new Finding(Owner.STARTED, "")
				: new Finding(Owner.OTHER, String.join(", ", others.stream().map(PortListeners::describe).toList()));
	}

	/**
	 * The listening sockets on {@code port} now, {@code socket:[INODE]} sorted: which server listens there, as a key.
	 * A server started since on the same port (a freed port handed out again) listens on other sockets. Empty where
	 * this platform has no {@code /proc/net/tcp}; an empty set when nothing listens.
	 *
	 * @since 0.9
	 */
	public static Optional<Set<String>> sockets(int port) {
		return sockets(port, PROC);
	}

	/** {@link #sockets(int)} over another {@code /proc}, for self-tests. */
	static Optional<Set<String>> sockets(int port, Path proc) {
		if (!Files.isReadable(proc.resolve("net/tcp"))) {
			return Optional.empty();
		}
		Set<String> sockets = new TreeSet<>();
		for (String table : List.of("net/tcp", "net/tcp6")) {
			sockets.addAll(listeningInodes(proc.resolve(table), port));
		}
		return Optional.of(sockets);
	}

	/** The {@code socket:[INODE]} links of the listening sockets on {@code port} in one {@code /proc/net/tcp*} table. */
	static Set<String> listeningInodes(Path table, int port) {
		Set<String> sockets = new HashSet<>();
		String wanted = String.format(Locale.ROOT, ":%04X", port);
		try {
			for (String line : Files.readAllLines(table)) {
				String[] f = line.trim().split("\\s+");
				if (f.length > 9 && f[1].endsWith(wanted) && LISTEN.equals(f[3]) && !"0".equals(f[9])) {
					sockets.add("socket:[" + f[9] + "]");
				}
			}
		}
		catch (IOException e) {
			// no such table (no IPv6): no listener there
		}
		return sockets;
	}

	private static Set<String> held(Path fds, Set<String> sockets) {
		Set<String> found = new HashSet<>();
		try (DirectoryStream<Path> links = Files.newDirectoryStream(fds)) {
			for (Path link : links) {
				try {
					String target = Files.readSymbolicLink(link).toString();
					if (sockets.contains(target)) {
						found.add(target);
					}
				}
				catch (IOException e) {
					// the descriptor closed while we looked
				}
			}
		}
		catch (IOException e) {
			// the process exited, or is not ours to read
		}
		return found;
	}

	private static Optional<Set<Long>> fromLsof(int port, String binary) {
		try {
			Process lsof = new ProcessBuilder(binary, "-nP", "-iTCP:" + port, "-sTCP:LISTEN", "-Fp").redirectErrorStream(true)
					.start();
			String out = new String(lsof.getInputStream().readAllBytes());
			if (!lsof.waitFor(10, TimeUnit.SECONDS)) {
				lsof.destroyForcibly();
				return Optional.empty();
			}
			Set<Long> pids = new TreeSet<>();
			out.lines().filter(l -> l.matches("p\\d+")).forEach(l -> pids.add(Long.parseLong(l.substring(1))));
			// lsof exits 1 when nothing matches; anything else that printed no pid is a failure to tell
			return lsof.exitValue() <= 1 ? Optional.of(pids) : Optional.empty();
		}
		catch (IOException e) {
			return Optional.empty();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return Optional.empty();
		}
	}

	/** {@code pid 123 (java -jar x.jar)}, as far as the platform tells. */
	static String describe(long pid) {
		return "pid " + pid + ProcessHandle.of(pid).flatMap(h -> h.info().commandLine()).map(c -> " (" + c + ")").orElse("");
	}
}
