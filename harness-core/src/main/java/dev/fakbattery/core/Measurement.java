package dev.fakbattery.core;

import java.util.Objects;

import dev.fakbattery.core.stats.ConfidenceInterval;

import org.apiguardian.api.API;

/**
 * A measurement is either a value with unit and source, or {@link Pending}: what is missing and how
 * to provide it. There is no third form: a number that was not measured cannot be expressed.
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
public sealed interface Measurement permits Measurement.Measured, Measurement.Pending {

	String name();

	static Measured of(String name, double value, String unit, String source) {
		return new Measured(name, value, unit, source);
	}

	/** A measured value with its 95 % confidence interval, which must be defined. */
	static Measured of(String name, double value, String unit, String source, ConfidenceInterval ci95) {
		return new Measured(name, value, unit, source, Objects.requireNonNull(ci95, "ci95"));
	}

	static Pending pending(String name, String missing, String howToProvide) {
		return new Pending(name, missing, howToProvide);
	}

	/**
	 * A measured value.
	 * @param source where the value came from (endpoint, file, computation)
	 * @param ci95 its 95 % confidence interval, defined, with finite ordered bounds; null when the value has none (a
	 *        count, a single reading)
	 */
	record Measured(String name, double value, String unit, String source, ConfidenceInterval ci95) implements Measurement {
		public Measured {
			Objects.requireNonNull(name, "name");
			Objects.requireNonNull(unit, "unit");
			Objects.requireNonNull(source, "source");
			if (!Double.isFinite(value)) {
				throw new IllegalArgumentException("measurement " + name + " is not a finite number: " + value);
			}
			if (ci95 != null && !ci95.isBounded()) {
				throw new IllegalArgumentException("measurement " + name + ": confidence interval [" + ci95.lo() + ", "
						+ ci95.hi() + "] is not defined, finite and ordered" + ci95.reason().map(why -> " (" + why + ")").orElse(""));
			}
		}

		/** A value without a confidence interval. */
		public Measured(String name, double value, String unit, String source) {
			this(name, value, unit, source, null);
		}

		/** Its 95 % confidence interval, when it has one. */
		public java.util.Optional<ConfidenceInterval> ci() {
			return java.util.Optional.ofNullable(ci95);
		}
	}

	/**
	 * A required measurement that is missing.
	 * @param missing what is missing, for example {@code raw engine base URL}
	 * @param howToProvide the fix, for example {@code set -Dbase.url=http://HOST:8000/v1}
	 */
	record Pending(String name, String missing, String howToProvide) implements Measurement {
		public Pending {
			Objects.requireNonNull(name, "name");
			Objects.requireNonNull(missing, "missing");
			Objects.requireNonNull(howToProvide, "howToProvide");
		}

		/** {@code <what> (<how to provide it>)}, the text after {@code PENDING_MEASUREMENT: }. */
		public String reason() {
			return missing + " (" + howToProvide + ")";
		}
	}
}
