package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("TaxBaselineKey and HostClass")
class TaxBaselineKeyTests {

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}

	@Test
	@DisplayName("the gateway part names gateway.url, else the gateway.cmd template, else the embedded reference gateway's front")
	void gatewayPart() {
		assertThat(TaxBaselineKey.gatewayOf(config(Map.of(HarnessConstants.GATEWAY_URL, "http://127.0.0.1:9000/v1",
				HarnessConstants.GATEWAY_CMD, "fak serve {port}")))).isEqualTo("url http://127.0.0.1:9000/v1");
		assertThat(TaxBaselineKey.gatewayOf(config(Map.of(HarnessConstants.GATEWAY_CMD, "fak serve {port}"))))
				.isEqualTo("cmd fak serve {port}");
		assertThat(TaxBaselineKey.gatewayOf(config(Map.of()))).isEqualTo("embedded reference-gateway/jdk");
		assertThat(TaxBaselineKey.gatewayOf(config(Map.of(HarnessConstants.REFERENCE_GATEWAY_SERVER, "netty"))))
				.isEqualTo("embedded reference-gateway/netty");
	}

	@Test
	@DisplayName("the key names every part, and fak's <model>::<engine> keys are told apart from it")
	void keyNamesEveryPart() {
		TaxBaselineKey key = new TaxBaselineKey("cmd g", "vllm", "0.11.0", "m", "chat seed 1", "Linux amd64, 2 cpus, x");

		assertThat(key.id()).isEqualTo("gateway=cmd g|engine=vllm 0.11.0|model=m|workload=chat seed 1|host=Linux amd64, 2 cpus, x");
		assertThat(TaxBaselineKey.legacy(key.id())).isFalse();
		assertThat(TaxBaselineKey.legacy("m::vllm")).isTrue();
	}

	@Test
	@DisplayName("the host class names the OS, the CPUs, the CPU model from /proc/cpuinfo and the required GPU, not the host name")
	void hostClass(@TempDir Path dir) throws IOException {
		Path cpuinfo = Files.writeString(dir.resolve("cpuinfo"), """
				processor	: 0
				vendor_id	: AuthenticAMD
				model name	: AMD EPYC   7R13 Processor
				""");

		assertThat(HostClass.cpuModel(cpuinfo)).hasValue("AMD EPYC 7R13 Processor");
		assertThat(HostClass.cpuModel(dir.resolve("absent"))).isEmpty();
		Path blankFirst = Files.writeString(dir.resolve("cpuinfo-blank"), "model name\t:\nmodel name\t: Neoverse-V2\n");
		assertThat(HostClass.cpuModel(blankFirst)).as("a model name left blank is no model").hasValue("Neoverse-V2");
		assertThat(HostClass.describe("Linux amd64", 16, HostClass.cpuModel(cpuinfo), Optional.of("H200")))
				.isEqualTo("Linux amd64, 16 cpus, AMD EPYC 7R13 Processor, gpu H200");
		assertThat(HostClass.describe("Linux amd64", 2, Optional.empty(), Optional.empty()))
				.isEqualTo("Linux amd64, 2 cpus, cpu model unknown");
		assertThat(HostClass.current(config(Map.of())))
				.startsWith(System.getProperty("os.name") + " " + System.getProperty("os.arch") + ", "
						+ Runtime.getRuntime().availableProcessors() + " cpus, ");
	}
}
