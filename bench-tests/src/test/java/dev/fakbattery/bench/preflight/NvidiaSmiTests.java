package dev.fakbattery.bench.preflight;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import dev.fakbattery.core.process.CommandResult;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("nvidia-smi query and parser")
class NvidiaSmiTests {

	@Test
	@DisplayName("the query is fak's exact command")
	void queryIsTheSeedCommand() {
		assertThat(String.join(" ", NvidiaSmi.QUERY_COMMAND))
				.isEqualTo("nvidia-smi --query-gpu=index,name,memory.total,compute_cap --format=csv,noheader,nounits");
	}

	@Test
	@DisplayName("parses index, name, MiB and compute capability of every line")
	void parsesRows() {
		NvidiaSmiReading reading = NvidiaSmiReading.parse(PreflightFixtures.resource("nvidia-smi-8xH200.csv"), true);

		assertThat(reading.status()).isEqualTo(SmiStatus.OK);
		assertThat(reading.gpus()).hasSize(8);
		assertThat(reading.gpus().get(7)).isEqualTo(new GpuRow("7", "NVIDIA H200", 143771.0, "9.0"));
	}

	@Test
	@DisplayName("N/A compute capability and unparsable memory are kept as empty and null")
	void keepsNotAvailableValuesEmpty() {
		NvidiaSmiReading reading = NvidiaSmiReading.parse("0, NVIDIA H200, [N/A], [N/A]\nnot a gpu line\n", true);

		assertThat(reading.gpus()).containsExactly(new GpuRow("0", "NVIDIA H200", null, ""));
	}

	@Test
	@DisplayName("output without a GPU line is EMPTY")
	void emptyOutputIsEmpty() {
		assertThat(NvidiaSmiReading.parse("\n", true).status()).isEqualTo(SmiStatus.EMPTY);
	}

	@Test
	@DisplayName("a command that cannot start is UNAVAILABLE with fak's detail")
	void notStartedIsUnavailable() {
		NvidiaSmiReading reading = NvidiaSmi.read(argv -> CommandResult.notStarted("No such file or directory"));

		assertThat(reading).isEqualTo(NvidiaSmiReading.unavailable("nvidia-smi not found"));
	}

	@Test
	@DisplayName("a failing driver is ERROR with its message, after trying the fallback query")
	void failingDriverIsError() {
		List<List<String>> ran = new ArrayList<>();
		NvidiaSmiReading reading = NvidiaSmi.read(argv -> {
			ran.add(argv);
			return new CommandResult(9, "", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n");
		});

		assertThat(ran).containsExactly(NvidiaSmi.QUERY_COMMAND, NvidiaSmi.FALLBACK_COMMAND);
		assertThat(reading.status()).isEqualTo(SmiStatus.ERROR);
		assertThat(reading.detail()).isEqualTo("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.");
	}
}
