package dev.fakbattery.gateway.policy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a policy file, JSON or YAML (YAML is a superset, so one reader takes both).
 *
 * <pre>
 * default: deny                     # allow | deny, for tools no rule names (default deny)
 * rules:
 *   - tool: "allow_*"
 *     verdict: allow
 *   - tool: "deny_*"
 *     verdict: deny
 *     reason: POLICY_BLOCK
 *   - tool: "transform_*"
 *     verdict: transform
 *     arguments: {"redacted": true}   # replacement arguments, or:
 *   - tool: "fetch_url"
 *     verdict: transform
 *     redact: ["/headers/authorization"]   # JSON pointers whose values become "[REDACTED]"
 * </pre>
 * A bad file fails with the file, the rule and what is wrong.
 *
 * @since 0.1
 */
public final class PolicyLoader {

	/** A YAML mapper of its own: the policy is YAML, which the battery's JSON mapper ({@code Json.MAPPER}) does not read. */
	private static final ObjectMapper YAML = new YAMLMapper();

	private PolicyLoader() {
	}

	public static Policy load(Path file) {
		try (InputStream in = Files.newInputStream(file)) {
			return parse(YAML.readTree(in), file.toString());
		}
		catch (IOException e) {
			throw new IllegalArgumentException("policy " + file + ": cannot read: " + e.getMessage(), e);
		}
	}

	/** The kit's convention: allow_* allowed, deny_* denied, transform_* gets {"redacted":true}. */
	public static Policy kitConvention() {
		try (InputStream in = PolicyLoader.class.getResourceAsStream("/kit-policy.yaml")) {
			return parse(YAML.readTree(in), "kit-policy.yaml");
		}
		catch (IOException e) {
			throw new IllegalStateException("kit-policy.yaml missing from the reference gateway jar", e);
		}
	}

	static Policy parse(JsonNode root, String source) {
		Policy.Builder builder = Policy.builder();
		String fallback = root.path("default").asText("deny").toLowerCase(Locale.ROOT);
		builder.fallback(switch (fallback) {
			case "deny" -> new Decision(Action.DENY, "<default>", "no rule matches this tool (default deny)", null, List.of());
			case "allow" -> new Decision(Action.ALLOW, "<default>", "no rule matches this tool (default allow)", null, List.of());
			default -> throw new IllegalArgumentException("policy " + source + ": default [" + fallback + "] must be allow or deny");
		});
		int n = 0;
		for (JsonNode rule : root.path("rules")) {
			n++;
			String glob = rule.path("tool").asText("");
			if (glob.isEmpty()) {
				throw new IllegalArgumentException("policy " + source + ": rule " + n + " has no 'tool' glob");
			}
			builder.rule(glob, decision(rule, glob, source));
		}
		return builder.build();
	}

	private static Decision decision(JsonNode rule, String glob, String source) {
		String verdict = rule.path("verdict").asText("").toLowerCase(Locale.ROOT);
		String reason = rule.path("reason").asText("");
		try {
			return switch (verdict) {
				case "allow" -> new Decision(Action.ALLOW, glob, reason.isEmpty() ? "allowed by rule " + glob : reason, null, List.of());
				case "deny" -> new Decision(Action.DENY, glob, reason.isEmpty() ? "POLICY_BLOCK" : reason, null, List.of());
				case "transform" -> new Decision(Action.TRANSFORM, glob, reason.isEmpty() ? "transformed by rule " + glob : reason,
						rule.has("arguments") ? rule.get("arguments") : null, pointers(rule.path("redact")));
				default -> throw new IllegalArgumentException("verdict [" + verdict + "] must be allow, deny or transform");
			};
		}
		catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("policy " + source + ": rule [" + glob + "]: " + e.getMessage(), e);
		}
	}

	private static List<JsonPointer> pointers(JsonNode redact) {
		List<JsonPointer> pointers = new ArrayList<>();
		redact.forEach(p -> pointers.add(JsonPointer.compile(p.asText())));
		return pointers;
	}
}
