package dev.fakbattery.conformance.rules;

import org.apiguardian.api.API;

/**
 * What a rule must have seen before its verdict can be a pass: a rule run that saw less is
 * {@link RuleOutcome#NOT_JUDGED}, never a pass (a gateway that answers 500 to everything delivers no denied byte, and has
 * kept no rule). Each rule of the index states its evidence ({@link KitRule#evidence()}), RULES.md lists it, and the kit
 * checks it after every rule run that passed.
 *
 * @since 0.8
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.8")
public enum Evidence {

	/**
	 * Every request the rule sent reached the kit's upstream, and every one the upstream answered with a normal answer (HTTP
	 * 200, well formed) reached the client as one: HTTP 200 with a JSON body, or, streaming, HTTP 200 with at least one
	 * event.
	 */
	DELIVERED(
			"the kit's upstream received every request the rule sent, and each normal answer reached the client as HTTP 200 of the kind asked (a JSON body, or a stream of events)"),

	/**
	 * Every request the rule sent reached the kit's upstream; what the client got is the rule's own verdict (an error
	 * status passed through, a broken upstream answer turned into a 502).
	 */
	FORWARDED("the kit's upstream received every request the rule sent (what the client got is the rule's verdict)"),

	/**
	 * The rule's own check demands a specific answer of the gateway (a 400 with an OpenAI-shaped error, a 413, a 431) that
	 * no gateway gives without reading the request; beyond the kit's probe, nothing more is needed.
	 */
	ANSWERED("the gateway gave the specific answer the rule demands (the rule's own check), after the kit's probe reached its upstream");

	private final String text;

	Evidence(String text) {
		this.text = text;
	}

	/** What the evidence is, as RULES.md states it. */
	public String text() {
		return text;
	}
}
