package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("process CPU seconds from /proc")
class ProcessCpuTests {

	@Test
	@DisplayName("this JVM has used CPU; a process that does not exist reads NaN, never 0")
	void readsOwnCpu() {
		Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Not applicable: no /proc on this system");

		assertThat(ProcessCpu.seconds(ProcessHandle.current().pid())).isPositive();
		assertThat(ProcessCpu.seconds(Long.MAX_VALUE)).isNaN();
	}
}
