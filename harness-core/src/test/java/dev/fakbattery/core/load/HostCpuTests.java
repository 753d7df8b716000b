package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("HostCpu: /proc/stat read per CPU, busy and stolen shares over a stretch, beside the client's lag")
class HostCpuTests {

	private static final List<String> BEFORE = List.of(
			"cpu  1000 0 200 8000 100 0 50 150 0 0",
			"cpu0 400 0 100 4400 50 0 25 25 0 0",
			"cpu1 600 0 100 3600 50 0 25 125 0 0",
			"intr 12345 0 0",
			"ctxt 999");

	private static final List<String> AFTER = List.of(
			"cpu  1100 0 220 8500 100 0 55 225 0 0",
			"cpu0 420 0 110 4700 50 0 27 100 0 0",
			"cpu1 680 0 110 3800 50 0 28 125 0 0");

	@Test
	@DisplayName("the shares over a stretch: busy = user+nice+system+irq+softirq, steal; each of that CPU's total, per CPU")
	void shares() {
		HostCpu stretch = HostCpu.parse(AFTER).orElseThrow().since(HostCpu.parse(BEFORE).orElseThrow());
		assertThat(stretch.cpus()).containsExactly("cpu", "cpu0", "cpu1");
		// cpu0: busy 20+10+2 = 32, idle 300, steal 75: of 407
		assertThat(stretch.busyShare("cpu0")).isCloseTo(32.0 / 407, org.assertj.core.data.Offset.offset(1e-12));
		assertThat(stretch.stealShare("cpu0")).isCloseTo(75.0 / 407, org.assertj.core.data.Offset.offset(1e-12));
		// cpu1: busy 80+10+3 = 93, idle 200, steal 0
		assertThat(stretch.stealShare("cpu1")).isZero();
		assertThat(stretch.busyShare("cpu1")).isCloseTo(93.0 / 293, org.assertj.core.data.Offset.offset(1e-12));
		assertThat(stretch.stealShare("cpu7")).as("a CPU not counted").isNaN();
		assertThat(stretch.toString()).isEqualTo("cpu0 busy 7.9 % steal 18.4 %, cpu1 busy 31.7 % steal 0.0 %");
		ObjectNode node = Json.MAPPER.createObjectNode();
		stretch.writeTo(node);
		assertThat(node.path("cpus").path("cpu0").path("steal_pct").asDouble()).isEqualTo(18.43);
		assertThat(node.path("cpus").path("cpu").path("busy_pct").isNumber()).isTrue();
		assertThat(node.path("method").asText()).startsWith("/proc/stat");
	}

	@Test
	@DisplayName("two stretches add up; no time passed reads NaN, not 0; lines without CPU counters give nothing")
	void plusAndEdges() {
		HostCpu before = HostCpu.parse(BEFORE).orElseThrow();
		HostCpu stretch = HostCpu.parse(AFTER).orElseThrow().since(before);
		HostCpu twice = stretch.plus(stretch);
		assertThat(twice.stealShare("cpu0")).isEqualTo(stretch.stealShare("cpu0"));
		assertThat(before.since(before).stealShare("cpu0")).isNaN();
		assertThat(HostCpu.parse(List.of("intr 1 2", "cpu0 x y"))).isEmpty();
		assertThat(HostCpu.parse(List.of())).isEmpty();
	}

	@Test
	@DisplayName("a missing file gives nothing; /proc/stat on Linux reads every CPU (by lines: procfs reports size 0)")
	void reads(@TempDir Path dir) throws Exception {
		assertThat(HostCpu.read(dir.resolve("absent"))).isEmpty();
		Path stat = Files.write(dir.resolve("stat"), BEFORE);
		assertThat(HostCpu.read(stat).orElseThrow().cpus()).containsExactly("cpu", "cpu0", "cpu1");
		assumeThat(Path.of("/proc/stat")).as("Linux's /proc/stat").exists();
		HostCpu now = HostCpu.now().orElseThrow();
		assertThat(now.cpus()).contains("cpu", "cpu0").hasSizeGreaterThan(1);
	}

	@Test
	@DisplayName("the client's lag carries the host's accounting: written under client_lag.host_cpu, named in a lag's note, summed on merge")
	void besideTheLag() throws Exception {
		assumeThat(Path.of("/proc/stat")).as("Linux's /proc/stat").exists();
		ClientLag lag;
		try (ClientLagProbe probe = ClientLagProbe.start()) {
			Thread.sleep(50);
			lag = probe.read();
		}
		assertThat(lag.host()).isPresent();
		assertThat(lag.hostNote()).startsWith(" (meanwhile cpu0 busy ").contains("steal");
		ObjectNode node = Json.MAPPER.createObjectNode();
		lag.writeTo(node);
		assertThat(node.path("host_cpu").path("cpus").path("cpu0").has("steal_pct")).isTrue();
		assertThat(ClientLag.merge(List.of(lag, lag)).host()).isPresent();
		assertThat(ClientLag.merge(List.of(lag, ClientLag.ofMicros(5))).host()).as("a part without the accounting").isEmpty();
		assertThat(ClientLag.ofMicros(5).hostNote()).isEmpty();
	}

	@Test
	@DisplayName("a lag's note names the host and the fix where a CPU was stolen over 1 % of its time, and only there")
	void stealNamesTheHost() {
		HostCpu stolen = HostCpu.parse(AFTER).orElseThrow().since(HostCpu.parse(BEFORE).orElseThrow());
		assertThat(stolen.maxStealShare()).isCloseTo(75.0 / 407, org.assertj.core.data.Offset.offset(1e-12));
		ClientLag lag = new ClientLag(new org.HdrHistogram.Histogram(3), java.util.Optional.of(stolen));
		assertThat(lag.hostNote()).contains("cpu0 busy 7.9 % steal 18.4 %")
				.contains("the host holding")
				.contains("-Dclient.keepawake=true");
		assertThat(lag.withHostNote()).startsWith(lag.toString()).endsWith(lag.hostNote());
		List<String> calm = List.of("cpu  1100 0 220 8500 100 0 55 150 0 0", "cpu0 420 0 110 4700 50 0 27 25 0 0",
				"cpu1 680 0 110 3800 50 0 28 125 0 0");
		HostCpu quiet = HostCpu.parse(calm).orElseThrow().since(HostCpu.parse(BEFORE).orElseThrow());
		assertThat(quiet.maxStealShare()).isZero();
		assertThat(new ClientLag(new org.HdrHistogram.Histogram(3), java.util.Optional.of(quiet)).hostNote())
				.startsWith(" (meanwhile cpu0 busy")
				.doesNotContain("the host holding");
	}
}
