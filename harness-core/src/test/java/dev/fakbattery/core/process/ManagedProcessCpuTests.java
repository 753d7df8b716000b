package dev.fakbattery.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("ManagedProcess.cpuSeconds: the CPU of the process and its children")
class ManagedProcessCpuTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("a child's work counts, though the started process itself only sleeps")
	void countsChildren() throws Exception {
		Path done = dir.resolve("done");
		String busyChild = "sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; touch " + done + "; exec sleep 60' & exec sleep 60";
		try (ManagedProcess process = ManagedProcess.start("test.cmd", busyChild, dir.resolve("log"))) {
			long deadline = System.nanoTime() + 60_000_000_000L;
			while (!Files.exists(done) && System.nanoTime() < deadline) {
				Thread.sleep(50);
			}
			assertThat(done).exists();

			// the started process is sleep(1) from the first microseconds; the tenth of a second is the child's loop
			assertThat(process.cpuSeconds()).isGreaterThan(0.1);
		}
	}
}
