package dev.fakbattery.conformance.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("F04's and F05's allowances follow the machine's socket buffers")
class SocketBuffersTests {

	private static final long MIB = UpstreamAnswers.MIB;

	@Test
	@DisplayName("the maxima are tcp_rmem's and tcp_wmem's third fields; the allowances grow with them above their floors")
	void readsTheMaxima(@TempDir Path sysctl) throws IOException {
		Files.writeString(sysctl.resolve("tcp_rmem"), "4096\t131072\t33554432\n");
		Files.writeString(sysctl.resolve("tcp_wmem"), "4096\t16384\t4194304\n");
		SocketBuffers buffers = SocketBuffers.readFrom(sysctl);
		assertThat(buffers.receiveMax()).isEqualTo(32 * MIB);
		assertThat(buffers.sendMax()).isEqualTo(4 * MIB);
		assertThat(buffers.source()).contains("tcp_rmem").contains("33554432");
		assertThat(buffers.allowance(32 * MIB, 8 * MIB, 2)).isEqualTo(80 * MIB);
		assertThat(buffers.allowance(16 * MIB, 4 * MIB, 1)).isEqualTo(40 * MIB);
	}

	@Test
	@DisplayName("Linux's default maxima keep today's floors: 16 MiB for F04, 32 MiB for F05")
	void defaultsKeepTheFloors() {
		SocketBuffers buffers = SocketBuffers.LINUX_DEFAULTS;
		assertThat(buffers.allowance(32 * MIB, 8 * MIB, 2)).isEqualTo(32 * MIB);
		assertThat(buffers.allowance(16 * MIB, 4 * MIB, 1)).isEqualTo(16 * MIB);
	}

	@Test
	@DisplayName("this machine's maxima are read where /proc gives them (Files.readString read one byte of them)")
	void readsThisMachine() {
		org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/sys/net/ipv4/tcp_rmem")),
				"no /proc/sys/net/ipv4/tcp_rmem on this machine (not Linux)");
		assertThat(SocketBuffers.ofThisMachine().source()).startsWith("/proc/sys/net/ipv4/tcp_rmem");
		assertThat(SocketBuffers.ofThisMachine().receiveMax()).isGreaterThan(4096);
	}

	@Test
	@DisplayName("a missing or malformed sysctl gives Linux's defaults, saying so")
	void unreadableGivesDefaults(@TempDir Path sysctl) throws IOException {
		assertThat(SocketBuffers.readFrom(sysctl)).isEqualTo(SocketBuffers.LINUX_DEFAULTS);
		Files.writeString(sysctl.resolve("tcp_rmem"), "4096 131072\n");
		Files.writeString(sysctl.resolve("tcp_wmem"), "4096 16384 4194304\n");
		assertThat(SocketBuffers.readFrom(sysctl)).isEqualTo(SocketBuffers.LINUX_DEFAULTS);
		Files.writeString(sysctl.resolve("tcp_rmem"), "4096 131072 0\n");
		assertThat(SocketBuffers.readFrom(sysctl).source()).contains("not readable");
	}
}
