declare module 'nepal-geojson' {
  interface DistrictFeature {
    properties: { DISTRICT: string; HQ: string; PROVINCE: number };
    geometry: { type: 'Polygon'; coordinates: number[][][] };
  }
  const nepalGeojson: { districts(): { features: DistrictFeature[] } };
  export default nepalGeojson;
}
