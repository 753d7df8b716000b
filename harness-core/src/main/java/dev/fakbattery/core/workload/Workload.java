package dev.fakbattery.core.workload;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.RequestSource;

import org.apiguardian.api.API;

/**
 * What a load run sends, chosen by {@code workload} ({@link Workloads#from}): the tax witness's fixed counting prompt,
 * {@code random} lengths, {@code sharegpt} conversations from a file, {@code prefix} groups sharing a prefix, or
 * {@code agentic} tool loops. Every workload is seeded: conversation {@code i} is the same requests for the same
 * seed, so the arms of a comparison send the same conversations; its name, parameters and seed go into every
 * artifact ({@link #writeTo}).
 *
 * <table>
 * <caption>workloads and their counterparts</caption>
 * <tr><th>name</th><th>vLLM bench serve</th><th>SGLang bench_serving</th><th>GuideLLM / AIPerf</th></tr>
 * <tr><td>fixed</td><td>-</td><td>-</td><td>- (fak's tax witness request)</td></tr>
 * <tr><td>random</td><td>{@code --dataset-name random}</td><td>{@code --dataset-name random}</td><td>synthetic data</td></tr>
 * <tr><td>sharegpt</td><td>{@code --dataset-name sharegpt}</td><td>{@code --dataset-name sharegpt}</td><td>file data</td></tr>
 * <tr><td>prefix</td><td>{@code prefix_repetition}</td><td>{@code generated-shared-prefix}</td><td>prefix options</td></tr>
 * <tr><td>agentic</td><td>-</td><td>-</td><td>AIPerf multi-turn (without tool results)</td></tr>
 * </table>
 *
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public sealed interface Workload permits FixedWorkload, RandomWorkload, ShareGptWorkload, PrefixWorkload, AgenticWorkload {

	/** The {@code workload} value, e.g. {@code random}. */
	String name();

	/** The seed every conversation is drawn from. */
	long seed();

	/** The conversations for {@code model}, streamed or not. */
	RequestSource requests(String model, boolean stream);

	/** Writes {@code name}, {@code seed} and the parameters. */
	void writeTo(ObjectNode node);

	/** One line for headlines and progress, e.g. {@code random in 1024 out 128 (range 0.0, ignore_eos, seed 7)}. */
	String describe();
}
