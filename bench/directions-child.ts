// `/directions` by car over HTTP in a process that holds the snapshot alone, as `serve --data` does
// (`directionsOverHttp`: the app as deployed, the client on one keep-alive connection):
//
//   node --expose-gc --import tsx bench/directions-child.ts SNAPSHOT PAIRS.json
//
// Why a process of its own: the routing bench's process also holds the PBF-loaded index with every
// mode's hierarchy and a plain Dijkstra's scratch, gigabytes a deployed server does not have; with
// them in the heap its collections and caches made the same requests 0.3-0.5 ms slower at p50.
// Prints one JSON line: the `EngineRouting['http']` of the pairs.

import { readFileSync } from 'node:fs';
import { engine } from './engine.js';
import { directionsOverHttp } from './route-engine.js';

const [file, pairsFile] = process.argv.slice(2);
if (!file || !pairsFile) throw new Error('usage: directions-child.ts SNAPSHOT PAIRS.json');
const { fromSnapshot } = await engine();
const index = fromSnapshot(readFileSync(file), file);
const pairs = JSON.parse(readFileSync(pairsFile, 'utf8')) as { points: [number, number][] }[];
process.stdout.write(JSON.stringify(await directionsOverHttp(index, pairs)) + '\n');
