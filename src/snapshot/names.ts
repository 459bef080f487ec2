import type { ColumnName } from '../model/table.js';

/** String lists, each stored as two sections: `NAME.utf8` (the strings run together) and `NAME.len` (their lengths). */
export type StringsName = 'strings' | 'words' | 'roadStrings';

/** Flatbush trees, each stored as `NAME.ids`, the leaves' item ids (their boxes follow from their items). */
export type TreeName = 'streets' | 'landmarkBoxes' | 'roadTree';

/** The index's sections beside the table: type and landmark trees (their KDBush ids), lookup order, text index. */
export type IndexSection =
  | 'typeIds'
  | 'typePlace'
  | 'typeMatched'
  | 'lookup'
  | 'landmarkIds'
  | 'landmarkAreas'
  | 'wordId'
  | 'docRow'
  | 'docLen'
  | 'docOld'
  | 'postingStart'
  | 'postingDoc'
  | 'postingTf';

/** The road graph's sections, and each mode's hierarchy arrays (`ch` + the mode's number + the array's name). */
export type RoadSection =
  | 'roadNodeLon'
  | 'roadNodeLat'
  | 'edgeFrom'
  | 'edgeTo'
  | 'edgeAccess'
  | 'edgeKmh'
  | 'edgeMeters'
  | 'edgeWay'
  | 'edgeCoordStart'
  | 'edgeCoords'
  | 'roadWayId'
  | 'roadWayName'
  | 'roadWayClass'
  | 'roadWayFlags'
  | 'roadNodeDelay'
  | 'roadNodeDelay'
  | 'restrictions'
  | `ch${number}${string}`;

/** Every section a snapshot may hold. */
export type SectionName = ColumnName | IndexSection | RoadSection | `${StringsName}.${'utf8' | 'len'}` | `${TreeName}.ids`;
