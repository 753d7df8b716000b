package dev.fakbattery.core.load;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.JsonNumbers;

import org.HdrHistogram.Histogram;
import org.apiguardian.api.API;

/**
 * How late the load client's own threads ran while it measured: the wake-up lateness of a probe parked on the same
 * virtual-thread carriers the client reads its responses on ({@link ClientLagProbe}), in microseconds. A client whose
 * lag p99 exceeds {@value #LIMIT_P99_MICROS} µs was itself a bottleneck: the latencies it recorded include its own
 * queueing, so a rung records such an arm as invalid ({@code RungRecorder.invalid}), like a lagging engine double.
 *
 * <p>The probe's own timer wake-up (about 0.05 to 0.1 ms on an idle Linux machine) is part of every sample, so the
 * figure over-states, never under-states, how late a response byte is read.
 *
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class ClientLag {

	/** The most p99 lag that still lets an arm count: {@value} µs (1 ms), the engine double's limit too. */
	public static final double LIMIT_P99_MICROS = 1_000.0;

	private final Histogram micros;

	private final Optional<HostCpu> host;

	ClientLag(Histogram micros) {
		this(micros, Optional.empty());
	}

	ClientLag(Histogram micros, Optional<HostCpu> host) {
		this.micros = micros;
		this.host = host;
	}

	/** No sample: nothing ran long enough to be probed. */
	public static ClientLag none() {
		return new ClientLag(new Histogram(3));
	}

	/** A lag from samples in microseconds, for tests and for readings taken elsewhere. */
	public static ClientLag ofMicros(long... samples) {
		Histogram histogram = new Histogram(3);
		for (long sample : samples) {
			histogram.recordValue(Math.max(0, sample));
		}
		return new ClientLag(histogram);
	}

	/**
	 * The lags of several runs taken together (the batches of one arm or level); the host's CPU accounting summed
	 * where every part has one.
	 */
	public static ClientLag merge(List<ClientLag> parts) {
		Histogram total = new Histogram(3);
		parts.forEach(part -> total.add(part.micros));
		Optional<HostCpu> host = parts.stream().allMatch(part -> part.host.isPresent())
				? parts.stream().map(part -> part.host.orElseThrow()).reduce(HostCpu::plus)
				: Optional.empty();
		return new ClientLag(total, host);
	}

	/**
	 * Where the machine's CPU time went while the lag was probed ({@link HostCpu}): busy, idle, stolen by the host;
	 * empty where {@code /proc/stat} is not there.
	 *
	 * @since 0.9
	 */
	public Optional<HostCpu> host() {
		return host;
	}

	/** Samples taken. */
	public long count() {
		return micros.getTotalCount();
	}

	/** Median lag in µs; {@code NaN} without samples. */
	public double p50Micros() {
		return at(50);
	}

	/** 99th-percentile lag in µs; {@code NaN} without samples. */
	public double p99Micros() {
		return at(99);
	}

	/** Largest lag in µs; {@code NaN} without samples. */
	public double maxMicros() {
		return count() == 0 ? Double.NaN : micros.getMaxValue();
	}

	/** Whether the client kept up: p99 at most {@value #LIMIT_P99_MICROS} µs over at least one sample. */
	public boolean withinLimit() {
		return count() > 0 && p99Micros() <= LIMIT_P99_MICROS;
	}

	private double at(double percentile) {
		return count() == 0 ? Double.NaN : micros.getValueAtPercentile(percentile);
	}

	/** {@code count, p50_us, p99_us, max_us, limit_p99_us, within_limit, method}. */
	public void writeTo(ObjectNode node) {
		node.put("count", count());
		JsonNumbers.put(node, "p50_us", p50Micros(), 1);
		JsonNumbers.put(node, "p99_us", p99Micros(), 1);
		JsonNumbers.put(node, "max_us", maxMicros(), 1);
		node.put("limit_p99_us", LIMIT_P99_MICROS);
		node.put("within_limit", withinLimit());
		node.put("method", ClientLagProbe.METHOD);
		host.ifPresent(cpu -> cpu.writeTo(node.putObject("host_cpu")));
	}

	@Override
	public String toString() {
		return String.format(Locale.ROOT, "p99 %.1f us (p50 %.1f, max %.1f) over %d samples", p99Micros(), p50Micros(), maxMicros(),
				count());
	}

	/**
	 * {@code " (meanwhile cpu0 busy 12.0 % steal 3.1 %, cpu1 ...)"}: where the machine's CPU time went while the lag was
	 * probed, for a message saying the lag invalidated a measurement; empty without {@link #host()}. Steal on an idle
	 * CPU names the host; busy CPUs name work on this machine.
	 *
	 * @since 0.9
	 */
	public String hostNote() {
		return host.map(cpu -> " (meanwhile " + cpu + (cpu.maxStealShare() > STEAL_NOTED ? STEAL_FIX : "") + ")").orElse("");
	}

	/**
	 * {@link #toString()} then {@link #hostNote()}: the reading for a message that names the lag as the reason a
	 * measurement is not judged.
	 *
	 * @since 0.9
	 */
	public String withHostNote() {
		return this + hostNote();
	}

	/** The most steal on any one CPU that a note leaves without a fix: {@value} (1 %). */
	static final double STEAL_NOTED = 0.01;

	private static final String STEAL_FIX = "; steal is the host holding this virtual machine's CPUs: on a VM whose idle CPUs halt, "
			+ "-Dclient.keepawake=true keeps the client's CPUs busy at idle priority (docs/rungs.md, the client is never the bottleneck)";
}
