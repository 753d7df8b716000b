package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("KeepAwake (client.keepawake): an idle-priority loop per CPU of the JVM's affinity, stopped on close")
class KeepAwakeTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("the affinity list is read from Cpus_allowed_list, ranges and single CPUs; no such line or file gives nothing")
	void affinity() throws Exception {
		assertThat(KeepAwake.cpuList("0-3,8,10-11")).containsExactly(0, 1, 2, 3, 8, 10, 11);
		assertThat(KeepAwake.cpuList("1")).containsExactly(1);
		Path status = Files.write(dir.resolve("status"), List.of("Name:\tjava", "Cpus_allowed:\t3", "Cpus_allowed_list:\t0-1"));
		assertThat(KeepAwake.affinity(status)).contains(List.of(0, 1));
		assertThat(KeepAwake.affinity(Files.write(dir.resolve("other"), List.of("Name:\tjava")))).isEmpty();
		assertThat(KeepAwake.affinity(dir.resolve("absent"))).isEmpty();
		assertThat(KeepAwake.off().cpus()).isEmpty();
	}

	@Test
	@DisplayName("on Linux with chrt: the loop runs at SCHED_IDLE on its CPU while open, and is gone after close")
	void loopsAtIdlePriority() throws Exception {
		assumeThat(Path.of("/proc/self/status")).as("Linux's /proc").exists();
		assumeThat(onPath("chrt") && onPath("taskset")).as("chrt and taskset on the PATH").isTrue();
		int cpu = KeepAwake.affinity(Path.of("/proc/self/status")).orElseThrow().get(0);
		List<ProcessHandle> loops;
		try (KeepAwake awake = KeepAwake.start(List.of(cpu), dir, "chrt")) {
			assertThat(awake.cpus()).containsExactly(cpu);
			// on a loaded machine the loop's command line can be unreadable for a moment (it is still exec'ing): look again
			long deadline = System.nanoTime() + 5_000_000_000L;
			do {
				loops = ProcessHandle.current()
						.descendants()
						.filter(p -> p.info().commandLine().orElse("").contains("while :; do :; done"))
						.toList();
			} while (loops.isEmpty() && System.nanoTime() < deadline && sleep(50));
			assertThat(loops).as("the loop among this JVM's descendants").isNotEmpty();
			for (ProcessHandle loop : loops) {
				String sched = Files.readString(Path.of("/proc/" + loop.pid() + "/sched"));
				assertThat(sched.lines().filter(line -> line.startsWith("policy")).findFirst().orElseThrow())
						.as("scheduling policy of %d (5 is SCHED_IDLE)", loop.pid())
						.matches("policy\\s+:\\s+5");
			}
			ObjectNode node = Json.MAPPER.createObjectNode();
			awake.writeTo(node);
			assertThat(node.path("cpus").get(0).asInt()).isEqualTo(cpu);
			assertThat(node.path("method").asText()).contains("chrt --idle 0");
		}
		for (ProcessHandle loop : loops) {
			// close returns once the loop has exited (a zombie at worst); the JVM's reaper thread collects it a moment later
			assertThat(loop.onExit()).as("the loop after close").succeedsWithin(Duration.ofSeconds(5));
			assertThat(loop.isAlive()).as("the loop after close").isFalse();
		}
	}

	@Test
	@DisplayName("a loop that cannot start is a misconfiguration naming client.keepawake, its log and the fix")
	void missingProgram() {
		assertThatThrownBy(() -> KeepAwake.start(List.of(0), dir, "no-such-chrt-program"))
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("client.keepawake [exec no-such-chrt-program")
				.hasMessageContaining("exited at once")
				.hasMessageContaining("not found")
				.hasMessageContaining("Fix: install util-linux (chrt, taskset), or leave -Dclient.keepawake unset");
	}

	private static boolean onPath(String program) {
		return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
				.anyMatch(folder -> Files.isExecutable(Path.of(folder, program)));
	}

	private static boolean sleep(long millis) throws InterruptedException {
		Thread.sleep(millis);
		return true;
	}
}
