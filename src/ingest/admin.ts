import type { Osm } from '../load/osm.js';
import { TagReader } from '../load/block.js';
import type { Area } from '../geom/areas.js';
import { PROVINCE, DISTRICT, MUNICIPALITY } from '../address/admin.js';
import { assembleMultipolygon } from './places.js';
import { labelName, nameIn } from '../osm/name.js';

/**
 * The province, district and municipality areas of the PBF's `boundary=administrative`
 * relations that assemble completely (extracts cut at their edges lose the nodes of
 * most boundary ways, and a partial ring would misplace points).
 */
export function osmAdminAreas(osm: Osm): Area[] {
  const out: Area[] = [];
  osm.blocks.forEach((blk) => {
    const runs = blk.relTags;
    const reader = new TagReader(runs, blk.strings);
    for (let i = 0; i < runs.owner.length; i++) {
      const tags = reader.at(i).map();
      const level = Number(tags.get('admin_level'));
      if (tags.get('boundary') !== 'administrative' || ![PROVINCE, DISTRICT, MUNICIPALITY].includes(level)) continue;
      const get = (k: string) => tags.get(k);
      const name = labelName(get);
      if (!name) continue;
      const mp = assembleMultipolygon(osm, blk, runs.owner[i]);
      if (!mp || mp.partial) continue;
      const en = nameIn(get, 'en').name,
        ne = nameIn(get, 'ne').name;
      out.push({ name, en, ne, level, rings: mp.polygons.flat().map((r) => r.map((v) => v / 1e7)) });
    }
  });
  return out;
}
