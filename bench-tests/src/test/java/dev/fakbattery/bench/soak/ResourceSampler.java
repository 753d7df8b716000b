package dev.fakbattery.bench.soak;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One sample of a process's resources: heap in use right after a full GC ({@code jcmd PID GC.run}, then
 * {@code GC.heap_info}; for the sampling JVM itself, {@link System#gc()} and the memory bean), live threads
 * ({@code /proc/PID/status}) and open file descriptors ({@code /proc/PID/fd}). A value that cannot be read is NaN, never 0.
 */
final class ResourceSampler {

	private static final Pattern USED = Pattern.compile("used (\\d+)K");

	private ResourceSampler() {
	}

	/** {@code [heapAfterGcMiB, threads, fds]} of {@code pid}. */
	static double[] sample(long pid) {
		boolean self = pid == ProcessHandle.current().pid();
		double heap = self ? selfHeapAfterGc() : heapAfterGc(pid);
		return new double[]{ heap, threads(pid), fds(pid) };
	}

	private static double selfHeapAfterGc() {
		System.gc();
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
	}

	private static double heapAfterGc(long pid) {
		String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
		if (run(List.of(jcmd, Long.toString(pid), "GC.run")) == null) {
			return Double.NaN;
		}
		String info = run(List.of(jcmd, Long.toString(pid), "GC.heap_info"));
		Matcher used = info == null ? null : USED.matcher(info);
		return used != null && used.find() ? Long.parseLong(used.group(1)) / 1024.0 : Double.NaN;
	}

	private static double threads(long pid) {
		try {
			for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
				if (line.startsWith("Threads:")) {
					return Double.parseDouble(line.substring("Threads:".length()).strip());
				}
			}
		}
		catch (IOException | NumberFormatException e) {
			// reported as NaN
		}
		return Double.NaN;
	}

	private static double fds(long pid) {
		try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
			return fds.count();
		}
		catch (IOException e) {
			return Double.NaN;
		}
	}

	private static String run(List<String> command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0 ? out : null;
		}
		catch (IOException e) {
			return null;
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return null;
		}
	}
}
