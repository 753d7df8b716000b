package dev.fakbattery.bench.tax;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

/**
 * The kind of host a tax was measured on, for the {@link TaxBaselineKey}: what the artifacts' provenance records of it
 * ({@code os}, {@code client_cpus}), the CPU model ({@code model name} of {@code /proc/cpuinfo}, {@code cpu model
 * unknown} elsewhere) and, when {@code gpu.name.required} names one, the GPU:
 * {@code Linux amd64, 16 cpus, AMD EPYC 7R13 Processor, gpu H200}. Not the host name: two hosts of one kind share
 * a baseline, one host repinned to fewer CPUs does not.
 */
final class HostClass {

	private static final Path CPUINFO = Path.of("/proc/cpuinfo");

	private HostClass() {
	}

	/** This host's class. */
	static String current(HarnessConfig config) {
		return describe(System.getProperty("os.name") + " " + System.getProperty("os.arch"),
				Runtime.getRuntime().availableProcessors(), cpuModel(CPUINFO), config.string(HarnessConstants.GPU_NAME_REQUIRED));
	}

	static String describe(String os, int cpus, Optional<String> cpuModel, Optional<String> gpu) {
		return os + ", " + cpus + " cpus, " + cpuModel.orElse("cpu model unknown") + gpu.map(name -> ", gpu " + name).orElse("");
	}

	/** The first {@code model name} of a {@code /proc/cpuinfo}; empty when there is none or it cannot be read. */
	static Optional<String> cpuModel(Path cpuinfo) {
		try (var lines = Files.lines(cpuinfo)) {
			return lines.filter(line -> line.startsWith("model name"))
					.map(line -> line.substring(line.indexOf(':') + 1).strip().replaceAll("\\s+", " "))
					.filter(name -> !name.isEmpty())
					.findFirst();
		}
		catch (IOException | java.io.UncheckedIOException e) {
			return Optional.empty();
		}
	}
}
