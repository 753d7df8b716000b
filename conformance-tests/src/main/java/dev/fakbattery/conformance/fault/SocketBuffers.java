package dev.fakbattery.conformance.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The most one TCP connection on this machine may hold in kernel buffers: its receive buffer at the largest size
 * Linux autotuning may give it ({@code net.ipv4.tcp_rmem}'s third field) plus its peer's send buffer at theirs
 * ({@code tcp_wmem}'s). Fault rules F04 and F05 judge how many bytes a gateway took from its upstream, and those
 * buffers take bytes no gateway chose to read: 35 MB went through a faithful pipe on a machine whose
 * {@code tcp_rmem} allows 32 MiB per connection (2026-12-03), where a fixed 32 MiB allowance assumed Linux's default of
 * 6 MiB.
 *
 * @param receiveMax the largest receive buffer in bytes
 * @param sendMax the largest send buffer in bytes
 * @param source where the two were read, for a failure message
 */
record SocketBuffers(long receiveMax, long sendMax, String source) {

	/** Linux's defaults for the two maxima (6 MiB, 4 MiB), used where {@code /proc} does not give them. */
	static final SocketBuffers LINUX_DEFAULTS = new SocketBuffers(6L * UpstreamAnswers.MIB, 4L * UpstreamAnswers.MIB,
			"Linux's default tcp_rmem and tcp_wmem (this machine's were not readable)");

	private static final Path SYSCTL = Path.of("/proc/sys/net/ipv4");

	/** This machine's maxima, read once. */
	static SocketBuffers ofThisMachine() {
		return Holder.THIS_MACHINE;
	}

	/** The maxima in a sysctl folder holding {@code tcp_rmem} and {@code tcp_wmem}; Linux's defaults if unreadable. */
	static SocketBuffers readFrom(Path sysctl) {
		try {
			long receive = third(read(sysctl.resolve("tcp_rmem")));
			long send = third(read(sysctl.resolve("tcp_wmem")));
			return new SocketBuffers(receive, send, sysctl + "/tcp_rmem and tcp_wmem (" + receive + ", " + send + " bytes)");
		}
		catch (IOException | RuntimeException unreadable) {
			return LINUX_DEFAULTS;
		}
	}

	/** One connection's kernel buffers at their largest: a receive buffer and its peer's send buffer. */
	long oneConnection() {
		return receiveMax + sendMax;
	}

	/** At least {@code floor}, else {@code allowance} plus {@code connections} connections' buffers at their largest. */
	long allowance(long floor, long allowance, int connections) {
		return Math.max(floor, allowance + connections * oneConnection());
	}

	/** By lines: {@code Files.readString} trusts the size procfs reports and read one byte of tcp_rmem (JDK 25). */
	private static String read(Path file) throws IOException {
		return String.join(" ", Files.readAllLines(file));
	}

	private static long third(String triple) {
		String[] fields = triple.trim().split("\\s+");
		if (fields.length != 3) {
			throw new IllegalArgumentException("expected three numbers, got '" + triple.trim() + "'");
		}
		long value = Long.parseLong(fields[2]);
		if (value <= 0) {
			throw new IllegalArgumentException("a buffer of " + value + " bytes");
		}
		return value;
	}

	private static final class Holder {
		static final SocketBuffers THIS_MACHINE = readFrom(SYSCTL);
	}
}
