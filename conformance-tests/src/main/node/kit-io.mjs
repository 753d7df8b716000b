// The kit's side of every client script: reads batches of jobs (a JSON array of {key, url, headers, request} a line: headers are the gateway's `gateway.header.*`) from
// standard input, reads each job with the client's `read`, four at a time, and prints a line per batch: a JSON array of
// what the client made of each answer: {key, failure, status, content, calls: [{id, name, arguments}], finish,
// completionTokens}.
import { createInterface } from 'node:readline';

export const API_KEY = 'kit-no-key';

/** A reading that ended in an error: its class and message, and the HTTP status the client attached, if any. */
export function failed(error) {
	const status = error?.status ?? error?.statusCode ?? error?.response?.status ?? error?.cause?.status ?? null;
	const name = error?.constructor?.name ?? typeof error;
	return { failure: `${name}: ${error?.message ?? String(error)}`.slice(0, 600), status: Number.isInteger(status) ? status : null };
}

/** A normal reading. */
export function answer(content, calls, finish, completionTokens) {
	return { failure: null, status: 200, content: content ?? '', calls, finish: finish ?? null,
		completionTokens: Number.isInteger(completionTokens) ? completionTokens : null };
}

/** The request's tools as name and JSON schema. */
export function tools(request) {
	return (request.tools ?? []).map(t => ({ name: t.function.name, parameters: t.function.parameters ?? { type: 'object' } }));
}

/**
 * Reads batches of jobs, one per line of standard input (a JSON array of {key, url, headers, request}), each job with `read`, four
 * at a time, and prints one line per batch: the readings in the order of its jobs. Ends when standard input closes: the
 * kit keeps one process per client for all its batches, as starting node and loading a client cost about five times
 * what reading a kit run's answers does.
 */
export async function main(read) {
	const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
	for await (const line of lines) {
		if (line.trim() === '') {
			continue;
		}
		const readings = await readAll(JSON.parse(line), read);
		await new Promise(resolve => process.stdout.write(JSON.stringify(readings) + '\n', resolve));
	}
}

async function readAll(jobs, read) {
	const readings = new Array(jobs.length);
	let next = 0;
	async function worker() {
		while (next < jobs.length) {
			const i = next++;
			let reading;
			try {
				reading = await read(jobs[i].url, jobs[i].request, jobs[i].headers ?? {});
			}
			catch (error) {
				reading = failed(error);
			}
			readings[i] = { key: jobs[i].key, ...reading };
		}
	}
	await Promise.all([worker(), worker(), worker(), worker()]);
	return readings;
}
