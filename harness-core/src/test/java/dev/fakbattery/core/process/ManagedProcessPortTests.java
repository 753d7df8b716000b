package dev.fakbattery.core.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("ManagedProcess.startOnFreePort: a server is judged only when the started process owns its port")
// waits on processes and servers it starts: beside the other classes (junit-platform.properties)
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class ManagedProcessPortTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@TempDir
	Path dir;

	private final List<Squatter> squatters = new ArrayList<>();

	@AfterEach
	void stopSquatters() {
		squatters.forEach(Squatter::close);
	}

	@Test
	@DisplayName("freePort hands out a different port each call, below the kernel's ephemeral range where port-0 binds land")
	void freePortsAreDistinctAndOutsideTheEphemeralRange() throws Exception {
		String[] range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+");
		int ephemeralLow = Integer.parseInt(range[0]);
		List<Integer> ports = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			ports.add(ManagedProcess.freePort());
		}
		assertThat(ports).doesNotHaveDuplicates().allSatisfy(port -> assertThat(port).isBetween(1024, ephemeralLow - 1));
		try (java.net.ServerSocket anyPort = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			assertThat(ports).as("a port-0 bind meanwhile").doesNotContain(anyPort.getLocalPort());
		}
	}

	@Test
	@DisplayName("another server takes the port between allocation and start: the start moves to a new port, the squatter gets no request")
	void squatterBetweenAllocationAndStartIsNeverProbed() throws Exception {
		Files.writeString(dir.resolve("health"), "ok");
		AtomicInteger handedOut = new AtomicInteger();
		IntSupplier ports = () -> {
			int port = ManagedProcess.freePort();
			if (handedOut.getAndIncrement() == 0) {
				squatters.add(Squatter.on(port));
			}
			return port;
		};
		try (ManagedProcess server = start(Squatter.fileServer(dir), ports)) {
			Squatter squatter = squatters.get(0);
			assertThat(server.port()).isNotEqualTo(squatter.port());
			assertThat(squatter.requests()).as("requests the squatter was sent").isZero();
			assertThat(server.refusedPorts()).hasSize(1);
			assertThat(server.refusedPorts().get(0)).contains("port " + squatter.port())
					.containsAnyOf("Address already in use", "held by pid");
		}
	}

	@Test
	@DisplayName("a started process that never binds while the port is squatted fails after the bounded attempts, naming the holder")
	void neverOwnedFailsNamingTheHolder() {
		Squatter squatter = Squatter.on(ManagedProcess.freePort());
		squatters.add(squatter);
		long started = System.nanoTime();
		assertThatThrownBy(() -> start("exec sleep 30", squatter::port).close())
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("could not get a port of its own in " + ManagedProcess.START_ATTEMPTS + " attempts")
				.hasMessageContaining("held by pid " + ProcessHandle.current().pid())
				.hasMessageContaining("not judged");
		assertThat(squatter.requests()).as("requests the squatter was sent").isZero();
		// the holder is found on the first look of each attempt, not at the health timeout
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(TIMEOUT);
	}

	@Test
	@DisplayName("a server on its own port is healthy, its port never refused; one that exits for another reason fails at once")
	void ownPortAndOtherExits() throws Exception {
		Files.writeString(dir.resolve("health"), "ok");
		try (ManagedProcess server = start(Squatter.fileServer(dir), ManagedProcess::freePort)) {
			// a free port can be taken by another process (another module's tests under -T2) before the server binds it:
			// that attempt is refused naming the holder and the next port tried; the port the server owns never is
			assertThat(server.refusedPorts()).as("refused attempts: only ports another process took first")
					.allSatisfy(refusal -> assertThat(refusal).contains("not by the started process")
							.doesNotContain("found port " + server.port() + " "));
			assertThat(PortListeners.of(server.port(), java.util.Set.of(ProcessHandle.current().pid())).owner())
					.isEqualTo(PortListeners.Owner.OTHER);
		}
		assertThatThrownBy(() -> start("echo broken config; exit 3", ManagedProcess::freePort).close())
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("exited with status 3")
				.hasMessageContaining("broken config")
				.hasMessageNotContaining("attempts");
	}

	private ManagedProcess start(String template, IntSupplier ports) {
		return ManagedProcess.startOnFreePort("test.cmd", port -> template.replace("{port}", String.valueOf(port)),
				port -> dir.resolve("server-" + port + ".log"), port -> List.of(URI.create("http://127.0.0.1:" + port + "/health")),
				TIMEOUT, ports);
	}
}
