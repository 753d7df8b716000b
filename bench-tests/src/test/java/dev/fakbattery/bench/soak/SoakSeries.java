package dev.fakbattery.bench.soak;

import java.util.ArrayList;
import java.util.List;

/** The samples of one sampled process: time, heap after GC (MiB), threads, open file descriptors. */
final class SoakSeries {

	static final String[] METRICS = { "heap after GC (MiB)", "threads", "open file descriptors" };

	private final String name;

	private final long pid;

	private final List<Double> seconds = new ArrayList<>();

	private final List<double[]> values = new ArrayList<>();

	private double[] restBefore;

	private double[] restAfter;

	SoakSeries(String name, long pid) {
		this.name = name;
		this.pid = pid;
	}

	String name() {
		return name;
	}

	long pid() {
		return pid;
	}

	void sample(double atSeconds) {
		seconds.add(atSeconds);
		values.add(ResourceSampler.sample(pid));
	}

	/** A sample at rest: before the load started ({@code before}) or once it ended and connections expired. */
	void rest(boolean before) {
		double[] sample = ResourceSampler.sample(pid);
		if (before) {
			restBefore = sample;
		}
		else {
			restAfter = sample;
		}
	}

	double[] restBefore() {
		return restBefore;
	}

	double[] restAfter() {
		return restAfter;
	}

	double[] seconds() {
		return seconds.stream().mapToDouble(Double::doubleValue).toArray();
	}

	/** The samples of metric {@code m} (index into {@link #METRICS}). */
	double[] metric(int m) {
		return values.stream().mapToDouble(v -> v[m]).toArray();
	}
}
