package dev.fakbattery.bench.tax;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU seconds a process has used (user + system), from Linux's {@code /proc/PID/stat} (fields 14 and 15, in clock
 * ticks of 1/100 s, Linux's fixed {@code USER_HZ}); {@code NaN} where there is no such file, never 0.
 */
final class ProcessCpu {

	private static final double TICKS_PER_SECOND = 100.0;

	private ProcessCpu() {
	}

	static double seconds(long pid) {
		try {
			String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
			// the command name (field 2) may hold spaces; the fields after it start past its closing parenthesis
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
		}
		catch (IOException | RuntimeException e) {
			return Double.NaN;
		}
	}
}
