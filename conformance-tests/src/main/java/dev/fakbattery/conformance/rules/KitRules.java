package dev.fakbattery.conformance.rules;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.apiguardian.api.API;

/**
 * The kit's rules by id and by test method: the wire, fault and client indexes together (a captured-wire rule is its
 * wire rule's run on captures, and is found as that wire rule).
 */
@API(status = API.Status.INTERNAL, since = "0.8")
public final class KitRules {

	private static final List<KitRule> ALL = Stream
			.of(Stream.<KitRule>of(WireRule.values()), Stream.<KitRule>of(FaultRule.values()), Stream.<KitRule>of(ClientRule.values()))
			.flatMap(s -> s)
			.toList();

	private KitRules() {
	}

	/** Every rule of the wire, fault and client indexes. */
	public static List<KitRule> all() {
		return ALL;
	}

	/** The rule {@code id} ({@code W03}, {@code F01}, {@code C02}). */
	public static Optional<KitRule> byId(String id) {
		return ALL.stream().filter(r -> r.id().equals(id)).findFirst();
	}

	/** The rule a kit method runs, by the id in its name ({@code required_W01_modelAlias}: W01). */
	public static Optional<KitRule> byMethod(String method) {
		String[] parts = method.split("_");
		return parts.length < 3 ? Optional.empty() : byId(parts[1]);
	}

	/** The rule a display name begins with ({@code W03 deny dropped}: W03). */
	public static Optional<KitRule> byDisplayName(String displayName) {
		return byId(displayName.strip().split(" ", 2)[0]);
	}
}
