package dev.fakbattery.core.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.JsonNumbers;

import org.apiguardian.api.API;

/**
 * Where this machine's CPU time went over a stretch, per CPU, as Linux counts it in {@code /proc/stat}: busy (user,
 * nice, system, irq, softirq), idle (idle, iowait) and stolen (the hypervisor ran something else while this virtual
 * CPU wanted to run). Read beside the client's lag ({@link ClientLag}) so that an arm the client's lag invalidates
 * says whether the host took the time (steal) or work on this machine did (busy): on a shared virtual machine, a
 * client lagging on an idle CPU with steal is the host's doing, and no change to the harness fixes it.
 *
 * @since 0.9
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.9")
public final class HostCpu {

	/** How it is measured, for artifacts. */
	public static final String METHOD = "/proc/stat per-CPU jiffies over the measured stretch: busy = user + nice + system + irq "
			+ "+ softirq, steal = time the hypervisor ran something else while the CPU wanted to run; each as a share of "
			+ "that CPU's total";

	private static final Path PROC_STAT = Path.of("/proc/stat");

	/** Per CPU ({@code cpu} is the machine's total): {@code busy, idle, steal} in jiffies. */
	private final Map<String, long[]> jiffies;

	private HostCpu(Map<String, long[]> jiffies) {
		this.jiffies = jiffies;
	}

	/** The counters now; empty where {@code /proc/stat} is not there (not Linux) or unreadable. */
	public static Optional<HostCpu> now() {
		return read(PROC_STAT);
	}

	/** The counters in a {@code /proc/stat}-shaped file; empty where it is missing, unreadable or has no CPU line. */
	static Optional<HostCpu> read(Path stat) {
		// by lines: procfs reports a size of 0, and a read that trusts the size reads nothing or one byte
		try (BufferedReader reader = Files.newBufferedReader(stat, StandardCharsets.US_ASCII)) {
			return parse(reader.lines().toList());
		}
		catch (IOException | RuntimeException e) {
			return Optional.empty();
		}
	}

	/** The counters in {@code /proc/stat} lines; empty where no {@code cpu} line parses. */
	static Optional<HostCpu> parse(List<String> lines) {
		Map<String, long[]> jiffies = new LinkedHashMap<>();
		for (String line : lines) {
			if (!line.startsWith("cpu")) {
				continue;
			}
			String[] f = line.trim().split("\\s+");
			if (f.length < 9) {
				continue;
			}
			try {
				long user = Long.parseLong(f[1]), nice = Long.parseLong(f[2]), system = Long.parseLong(f[3]);
				long idle = Long.parseLong(f[4]), iowait = Long.parseLong(f[5]), irq = Long.parseLong(f[6]);
				long softirq = Long.parseLong(f[7]), steal = Long.parseLong(f[8]);
				jiffies.put(f[0], new long[]{ user + nice + system + irq + softirq, idle + iowait, steal });
			}
			catch (NumberFormatException e) {
				// a line this reader does not know: left out
			}
		}
		return jiffies.isEmpty() ? Optional.empty() : Optional.of(new HostCpu(jiffies));
	}

	/** What was counted between {@code earlier} and this reading, CPU by CPU (a CPU in only one of them is left out). */
	public HostCpu since(HostCpu earlier) {
		Map<String, long[]> delta = new LinkedHashMap<>();
		jiffies.forEach((cpu, now) -> {
			long[] then = earlier.jiffies.get(cpu);
			if (then != null) {
				delta.put(cpu, new long[]{ now[0] - then[0], now[1] - then[1], now[2] - then[2] });
			}
		});
		return new HostCpu(delta);
	}

	/** Two stretches taken together (the arms of one level). */
	public HostCpu plus(HostCpu other) {
		Map<String, long[]> sum = new LinkedHashMap<>();
		jiffies.forEach((cpu, mine) -> {
			long[] theirs = other.jiffies.get(cpu);
			if (theirs != null) {
				sum.put(cpu, new long[]{ mine[0] + theirs[0], mine[1] + theirs[1], mine[2] + theirs[2] });
			}
		});
		return new HostCpu(sum);
	}

	/** The CPUs counted, the machine's total ({@code cpu}) first where present. */
	public List<String> cpus() {
		return new ArrayList<>(jiffies.keySet());
	}

	/** The share of {@code cpu}'s time stolen by the host, 0 to 1; {@code NaN} where it was not counted or no time passed. */
	public double stealShare(String cpu) {
		return share(cpu, 2);
	}

	/** The share of {@code cpu}'s time it was busy on this machine's work, 0 to 1; {@code NaN} as {@link #stealShare}. */
	public double busyShare(String cpu) {
		return share(cpu, 0);
	}

	private double share(String cpu, int field) {
		long[] j = jiffies.get(cpu);
		if (j == null) {
			return Double.NaN;
		}
		long total = j[0] + j[1] + j[2];
		return total <= 0 ? Double.NaN : (double) j[field] / total;
	}

	/** The largest steal share of any one CPU (the machine's total left out where CPUs are counted), 0 to 1; 0 without time. */
	public double maxStealShare() {
		return cpus().stream()
				.filter(cpu -> !cpu.equals("cpu") || jiffies.size() == 1)
				.mapToDouble(this::stealShare)
				.filter(share -> !Double.isNaN(share))
				.max()
				.orElse(0);
	}

	/** {@code method} and, per CPU, {@code busy_pct} and {@code steal_pct}. */
	public void writeTo(ObjectNode node) {
		node.put("method", METHOD);
		ObjectNode cpus = node.putObject("cpus");
		for (String cpu : cpus()) {
			ObjectNode one = cpus.putObject(cpu);
			JsonNumbers.put(one, "busy_pct", 100 * busyShare(cpu), 2);
			JsonNumbers.put(one, "steal_pct", 100 * stealShare(cpu), 2);
		}
	}

	/** {@code cpu0 busy 12.0 % steal 3.1 %, cpu1 ...}: each CPU, not the total. */
	@Override
	public String toString() {
		List<String> parts = new ArrayList<>();
		for (String cpu : cpus()) {
			if (!cpu.equals("cpu") || jiffies.size() == 1) {
				parts.add(String.format(Locale.ROOT, "%s busy %.1f %% steal %.1f %%", cpu, 100 * busyShare(cpu), 100 * stealShare(cpu)));
			}
		}
		return String.join(", ", parts);
	}
}
