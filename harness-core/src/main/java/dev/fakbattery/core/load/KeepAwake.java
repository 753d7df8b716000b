package dev.fakbattery.core.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.process.ManagedProcess;

import org.apiguardian.api.API;

/**
 * Keeps the load client's CPUs from halting while it measures ({@code client.keepawake}): one busy loop per CPU the
 * harness JVM may run on, at idle scheduling priority, so the client's own threads preempt it at once. On a virtual
 * machine whose idle CPUs halt (a Firecracker guest with halt polling off), a mostly idle client gives its physical
 * CPU back between requests and each timer wake-up waits for the host; the client's lag then reads as the host's
 * steal ({@link HostCpu}). A CPU kept busy does not halt. The loops are {@link ManagedProcess}es: stopped on close,
 * by the shutdown hook, or by the reaper.
 *
 * @since 0.9
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.9")
public final class KeepAwake implements AutoCloseable {

	/** How it keeps the CPUs awake, for artifacts. */
	public static final String METHOD = "one `chrt --idle 0 taskset -c N sh -c 'while :; do :; done'` per CPU of the harness JVM's "
			+ "affinity (/proc/self/status Cpus_allowed_list) while the rung measures: the CPU never halts, so a timer wake-up "
			+ "does not wait for the host; the client's threads preempt the idle-priority loop, which host_cpu then counts as busy";

	/** How long a loop must keep running after its start to count as started: 200 ms. */
	private static final long START_CHECK_MILLIS = 200;

	private final List<Integer> cpus;

	private final List<ManagedProcess> loops;

	private KeepAwake(List<Integer> cpus, List<ManagedProcess> loops) {
		this.cpus = cpus;
		this.loops = loops;
	}

	/** Nothing kept awake ({@code client.keepawake} unset). */
	public static KeepAwake off() {
		return new KeepAwake(List.of(), List.of());
	}

	/**
	 * Starts a loop on each CPU of this JVM's affinity, each logged under {@code logDir}.
	 *
	 * @throws IllegalStateException naming {@code client.keepawake} and the fix when the affinity cannot be read (not
	 *         Linux) or a loop does not keep running (no {@code chrt} or {@code taskset}; its log's last lines in the
	 *         message); the loops already started are stopped
	 */
	public static KeepAwake start(Path logDir) {
		return start(affinity(Path.of("/proc/self/status")).orElseThrow(() -> new IllegalStateException(HarnessConstants.CLIENT_KEEPAWAKE
				+ "=true needs this JVM's CPUs from /proc/self/status (Cpus_allowed_list), which this platform does not have. Fix: "
				+ "leave -D" + HarnessConstants.CLIENT_KEEPAWAKE + " unset")), logDir, "chrt");
	}

	/** {@link #start(Path)} on {@code cpus} with {@code chrt} as the program that sets the idle priority. */
	static KeepAwake start(List<Integer> cpus, Path logDir, String chrt) {
		List<ManagedProcess> loops = new ArrayList<>();
		try {
			for (int cpu : cpus) {
				loops.add(ManagedProcess.start(HarnessConstants.CLIENT_KEEPAWAKE,
						"exec " + chrt + " --idle 0 taskset -c " + cpu + " sh -c 'while :; do :; done'",
						logDir.resolve("keepawake-cpu" + cpu + ".log")));
			}
			Thread.sleep(START_CHECK_MILLIS);
			for (ManagedProcess loop : loops) {
				if (!loop.isAlive()) {
					throw new IllegalStateException(loop.failure("exited at once instead of spinning").getMessage()
							+ "\nFix: install util-linux (chrt, taskset), or leave -D" + HarnessConstants.CLIENT_KEEPAWAKE + " unset");
				}
			}
			return new KeepAwake(List.copyOf(cpus), List.copyOf(loops));
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			loops.forEach(ManagedProcess::close);
			throw new IllegalStateException(HarnessConstants.CLIENT_KEEPAWAKE + ": interrupted while starting", e);
		}
		catch (RuntimeException e) {
			loops.forEach(ManagedProcess::close);
			throw e;
		}
	}

	/** The CPUs of a {@code /proc/<pid>/status}-shaped file's {@code Cpus_allowed_list}; empty where there is none. */
	static Optional<List<Integer>> affinity(Path status) {
		try (BufferedReader reader = Files.newBufferedReader(status, StandardCharsets.US_ASCII)) {
			return reader.lines()
					.filter(line -> line.startsWith("Cpus_allowed_list:"))
					.findFirst()
					.map(line -> cpuList(line.substring("Cpus_allowed_list:".length()).trim()));
		}
		catch (IOException | RuntimeException e) {
			return Optional.empty();
		}
	}

	/** {@code 0-3,8,10-11} as {@code [0, 1, 2, 3, 8, 10, 11]}. */
	static List<Integer> cpuList(String list) {
		TreeSet<Integer> cpus = new TreeSet<>();
		for (String part : list.split(",")) {
			String range = part.trim();
			if (range.isEmpty()) {
				continue;
			}
			int dash = range.indexOf('-');
			int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
			int to = dash < 0 ? from : Integer.parseInt(range.substring(dash + 1));
			for (int cpu = from; cpu <= to; cpu++) {
				cpus.add(cpu);
			}
		}
		return List.copyOf(cpus);
	}

	/** The CPUs kept awake; empty when off. */
	public List<Integer> cpus() {
		return cpus;
	}

	/** {@code cpus} and {@code method}. */
	public void writeTo(ObjectNode node) {
		ArrayNode list = node.putArray("cpus");
		cpus.forEach(list::add);
		node.put("method", METHOD);
	}

	/** Stops every loop. */
	@Override
	public void close() {
		loops.forEach(ManagedProcess::close);
	}
}
