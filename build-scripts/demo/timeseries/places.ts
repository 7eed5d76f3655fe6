/**
 * The real places of the demo network: river gauges on five German rivers and weather /
 * air-quality stations in German, Dutch and Belgian towns. Coordinates are WGS84 degrees, close
 * to the real sites (within a few hundred metres to a few kilometres); mean water levels and
 * discharges are of the right order for each gauge, not official figures.
 */

export interface River {
  key: RiverKey;
  de: string;
  en: string;
  /** +1 when the river kilometre grows downstream (Rhein, Elbe, Weser), -1 when it is counted from the mouth (Donau, Mosel). */
  kmDirection: 1 | -1;
  /** Flood range R as a fraction of the mean water level; warning levels are MW + 0.6 R, 0.8 R, R. */
  floodRangeFactor: number;
  /** Day of year of the seasonal high water. */
  seasonPeakDay: number;
  /** Hours a flood wave takes to rise (Gaussian width) and to fall (exponential time constant). */
  riseHours: number;
  fallHours: number;
  /** Mean water temperature, °C. */
  meanWaterTemp: number;
}

export type RiverKey = 'rhein' | 'elbe' | 'donau' | 'weser' | 'mosel';

export const RIVERS: Record<RiverKey, River> = {
  rhein: { key: 'rhein', de: 'Rhein', en: 'Rhine', kmDirection: 1, floodRangeFactor: 1.3, seasonPeakDay: 40, riseHours: 36, fallHours: 110, meanWaterTemp: 13 },
  elbe: { key: 'elbe', de: 'Elbe', en: 'Elbe', kmDirection: 1, floodRangeFactor: 1.8, seasonPeakDay: 75, riseHours: 40, fallHours: 120, meanWaterTemp: 12 },
  donau: { key: 'donau', de: 'Donau', en: 'Danube', kmDirection: -1, floodRangeFactor: 0.9, seasonPeakDay: 110, riseHours: 30, fallHours: 90, meanWaterTemp: 11 },
  weser: { key: 'weser', de: 'Weser', en: 'Weser', kmDirection: 1, floodRangeFactor: 1.6, seasonPeakDay: 45, riseHours: 24, fallHours: 70, meanWaterTemp: 11.5 },
  mosel: { key: 'mosel', de: 'Mosel', en: 'Moselle', kmDirection: -1, floodRangeFactor: 1.8, seasonPeakDay: 30, riseHours: 20, fallHours: 60, meanWaterTemp: 12.5 },
};

export interface Gauge {
  /** Town, German spelling; `en` when English differs. */
  de: string;
  en?: string;
  river: RiverKey;
  lon: number;
  lat: number;
  /** River kilometre of the gauge. */
  km: number;
  /** Mean water level MW, cm above gauge zero. */
  mw: number;
  /** Mean discharge MQ, m3/s; absent where the gauge reports no discharge (tidal reaches). */
  mq?: number;
  /** Gauge reports water temperature too. */
  temp?: boolean;
  /** Semidiurnal tidal amplitude, cm (tidal Elbe). */
  tide?: number;
}

// prettier-ignore
export const GAUGES: Gauge[] = [
  { de: 'Rheinfelden', river: 'rhein', lon: 7.794, lat: 47.561, km: 147, mw: 240, mq: 1030, temp: true },
  { de: 'Kehl-Kronenhof', river: 'rhein', lon: 7.815, lat: 48.576, km: 294, mw: 300, mq: 1250 },
  { de: 'Maxau', river: 'rhein', lon: 8.305, lat: 49.039, km: 362, mw: 500, mq: 1260, temp: true },
  { de: 'Speyer', river: 'rhein', lon: 8.447, lat: 49.319, km: 400, mw: 440, mq: 1280 },
  { de: 'Mannheim', river: 'rhein', lon: 8.456, lat: 49.487, km: 424, mw: 380, mq: 1300 },
  { de: 'Worms', river: 'rhein', lon: 8.375, lat: 49.635, km: 443, mw: 240, mq: 1410 },
  { de: 'Mainz', river: 'rhein', lon: 8.275, lat: 50.004, km: 498, mw: 310, mq: 1600, temp: true },
  { de: 'Bingen', river: 'rhein', lon: 7.896, lat: 49.968, km: 528, mw: 220, mq: 1620 },
  { de: 'Kaub', river: 'rhein', lon: 7.765, lat: 50.085, km: 546, mw: 230, mq: 1650 },
  { de: 'Koblenz', river: 'rhein', lon: 7.604, lat: 50.358, km: 591, mw: 270, mq: 1750 },
  { de: 'Andernach', river: 'rhein', lon: 7.395, lat: 50.440, km: 613, mw: 340, mq: 2080 },
  { de: 'Bonn', river: 'rhein', lon: 7.107, lat: 50.737, km: 655, mw: 350, mq: 2100 },
  { de: 'Köln', en: 'Cologne', river: 'rhein', lon: 6.963, lat: 50.937, km: 688, mw: 340, mq: 2100, temp: true },
  { de: 'Düsseldorf', river: 'rhein', lon: 6.770, lat: 51.226, km: 744, mw: 330, mq: 2130 },
  { de: 'Duisburg-Ruhrort', river: 'rhein', lon: 6.728, lat: 51.455, km: 780, mw: 460, mq: 2270 },
  { de: 'Wesel', river: 'rhein', lon: 6.610, lat: 51.648, km: 814, mw: 480, mq: 2300 },
  { de: 'Emmerich', river: 'rhein', lon: 6.243, lat: 51.829, km: 852, mw: 380, mq: 2300, temp: true },
  { de: 'Schöna', river: 'elbe', lon: 14.234, lat: 50.879, km: 2, mw: 210, mq: 310 },
  { de: 'Dresden', river: 'elbe', lon: 13.739, lat: 51.054, km: 56, mw: 200, mq: 330, temp: true },
  { de: 'Meißen', river: 'elbe', lon: 13.475, lat: 51.163, km: 82, mw: 220, mq: 335 },
  { de: 'Torgau', river: 'elbe', lon: 13.005, lat: 51.555, km: 154, mw: 260, mq: 350 },
  { de: 'Wittenberg', river: 'elbe', lon: 12.646, lat: 51.858, km: 214, mw: 250, mq: 370, temp: true },
  { de: 'Aken', river: 'elbe', lon: 12.049, lat: 51.856, km: 275, mw: 270, mq: 440 },
  { de: 'Barby', river: 'elbe', lon: 11.882, lat: 51.990, km: 295, mw: 280, mq: 560 },
  { de: 'Magdeburg-Strombrücke', river: 'elbe', lon: 11.645, lat: 52.130, km: 326, mw: 200, mq: 560, temp: true },
  { de: 'Tangermünde', river: 'elbe', lon: 11.977, lat: 52.544, km: 388, mw: 330, mq: 570 },
  { de: 'Wittenberge', river: 'elbe', lon: 11.754, lat: 52.988, km: 454, mw: 280, mq: 680 },
  { de: 'Dömitz', river: 'elbe', lon: 11.249, lat: 53.141, km: 504, mw: 250, mq: 700 },
  { de: 'Hitzacker', river: 'elbe', lon: 11.043, lat: 53.153, km: 523, mw: 380, mq: 710 },
  { de: 'Neu Darchau', river: 'elbe', lon: 10.889, lat: 53.232, km: 536, mw: 300, mq: 720, temp: true },
  { de: 'Hamburg-St. Pauli', river: 'elbe', lon: 9.970, lat: 53.545, km: 623, mw: 520, tide: 180 },
  { de: 'Neu-Ulm', river: 'donau', lon: 10.000, lat: 48.394, km: 2586, mw: 150, mq: 125 },
  { de: 'Donauwörth', river: 'donau', lon: 10.780, lat: 48.717, km: 2508, mw: 200, mq: 165 },
  { de: 'Ingolstadt', river: 'donau', lon: 11.424, lat: 48.757, km: 2458, mw: 220, mq: 310, temp: true },
  { de: 'Kelheim', river: 'donau', lon: 11.885, lat: 48.915, km: 2414, mw: 300, mq: 330 },
  { de: 'Regensburg', river: 'donau', lon: 12.100, lat: 49.022, km: 2379, mw: 380, mq: 440, temp: true },
  { de: 'Straubing', river: 'donau', lon: 12.574, lat: 48.885, km: 2321, mw: 400, mq: 450 },
  { de: 'Deggendorf', river: 'donau', lon: 12.961, lat: 48.829, km: 2284, mw: 350, mq: 455 },
  { de: 'Hofkirchen', river: 'donau', lon: 13.116, lat: 48.677, km: 2257, mw: 400, mq: 640 },
  { de: 'Passau', river: 'donau', lon: 13.467, lat: 48.576, km: 2225, mw: 490, mq: 690, temp: true },
  { de: 'Hann. Münden', river: 'weser', lon: 9.644, lat: 51.418, km: 0, mw: 220, mq: 110 },
  { de: 'Höxter', river: 'weser', lon: 9.388, lat: 51.776, km: 70, mw: 200, mq: 130 },
  { de: 'Hameln', river: 'weser', lon: 9.357, lat: 52.102, km: 135, mw: 230, mq: 150, temp: true },
  { de: 'Vlotho', river: 'weser', lon: 8.860, lat: 52.175, km: 161, mw: 260, mq: 170 },
  { de: 'Porta Westfalica', river: 'weser', lon: 8.919, lat: 52.248, km: 198, mw: 300, mq: 180 },
  { de: 'Nienburg', river: 'weser', lon: 9.205, lat: 52.642, km: 268, mw: 240, mq: 250 },
  { de: 'Intschede', river: 'weser', lon: 9.127, lat: 52.965, km: 331, mw: 400, mq: 320, temp: true },
  { de: 'Perl', river: 'mosel', lon: 6.376, lat: 49.472, km: 242, mw: 300, mq: 150 },
  { de: 'Trier', river: 'mosel', lon: 6.627, lat: 49.744, km: 196, mw: 300, mq: 290, temp: true },
  { de: 'Bernkastel-Kues', river: 'mosel', lon: 7.072, lat: 49.917, km: 129, mw: 320, mq: 300 },
  { de: 'Cochem', river: 'mosel', lon: 7.167, lat: 50.147, km: 51, mw: 350, mq: 315 },
  { de: 'Hatzenport', river: 'mosel', lon: 7.410, lat: 50.230, km: 37, mw: 330, mq: 320 },
];

export interface WeatherSite {
  de: string;
  en?: string;
  country: 'DE' | 'NL' | 'BE';
  lon: number;
  lat: number;
  /** Height above sea level, m. */
  alt: number;
  /** Series besides air temperature: P precipitation, H relative humidity, M PM10. */
  has: string;
  /** Urban PM10 background, µg/m3 (for sites with M). */
  pm?: number;
}

// prettier-ignore
export const WEATHER_SITES: WeatherSite[] = [
  { de: 'Hamburg', country: 'DE', lon: 9.988, lat: 53.633, alt: 11, has: 'PHM', pm: 20 },
  { de: 'Bremen', country: 'DE', lon: 8.799, lat: 53.045, alt: 4, has: 'PH' },
  { de: 'Hannover', country: 'DE', lon: 9.678, lat: 52.464, alt: 55, has: 'PHM', pm: 19 },
  { de: 'Berlin', country: 'DE', lon: 13.402, lat: 52.520, alt: 36, has: 'PHM', pm: 24 },
  { de: 'Magdeburg', country: 'DE', lon: 11.583, lat: 52.103, alt: 76, has: 'P' },
  { de: 'Leipzig', country: 'DE', lon: 12.374, lat: 51.340, alt: 113, has: 'PHM', pm: 21 },
  { de: 'Dresden', country: 'DE', lon: 13.752, lat: 51.128, alt: 227, has: 'PHM', pm: 20 },
  { de: 'Erfurt', country: 'DE', lon: 10.960, lat: 50.983, alt: 316, has: 'PH' },
  { de: 'Kassel', country: 'DE', lon: 9.445, lat: 51.297, alt: 231, has: 'P' },
  { de: 'Münster', country: 'DE', lon: 7.626, lat: 51.962, alt: 60, has: 'PHM', pm: 18 },
  { de: 'Bielefeld', country: 'DE', lon: 8.532, lat: 52.021, alt: 120, has: 'P' },
  { de: 'Osnabrück', country: 'DE', lon: 8.047, lat: 52.279, alt: 95, has: 'H' },
  { de: 'Dortmund', country: 'DE', lon: 7.466, lat: 51.514, alt: 86, has: 'PHM', pm: 23 },
  { de: 'Düsseldorf', country: 'DE', lon: 6.768, lat: 51.296, alt: 37, has: 'PHM', pm: 22 },
  { de: 'Köln', en: 'Cologne', country: 'DE', lon: 6.960, lat: 50.938, alt: 53, has: 'PHM', pm: 23 },
  { de: 'Aachen', country: 'DE', lon: 6.083, lat: 50.776, alt: 173, has: 'PM', pm: 18 },
  { de: 'Koblenz', country: 'DE', lon: 7.589, lat: 50.356, alt: 85, has: 'P' },
  { de: 'Trier', country: 'DE', lon: 6.640, lat: 49.750, alt: 144, has: 'PH' },
  { de: 'Saarbrücken', country: 'DE', lon: 6.996, lat: 49.240, alt: 190, has: 'PM', pm: 19 },
  { de: 'Mainz', country: 'DE', lon: 8.271, lat: 49.999, alt: 85, has: 'H' },
  { de: 'Frankfurt am Main', en: 'Frankfurt', country: 'DE', lon: 8.682, lat: 50.111, alt: 100, has: 'PHM', pm: 24 },
  { de: 'Mannheim', country: 'DE', lon: 8.466, lat: 49.488, alt: 96, has: 'PM', pm: 22 },
  { de: 'Karlsruhe', country: 'DE', lon: 8.404, lat: 49.009, alt: 116, has: 'PH' },
  { de: 'Stuttgart', country: 'DE', lon: 9.182, lat: 48.776, alt: 245, has: 'PHM', pm: 25 },
  { de: 'Freiburg im Breisgau', en: 'Freiburg', country: 'DE', lon: 7.852, lat: 47.995, alt: 237, has: 'PH' },
  { de: 'Konstanz', country: 'DE', lon: 9.175, lat: 47.663, alt: 400, has: 'P' },
  { de: 'Ulm', country: 'DE', lon: 9.991, lat: 48.398, alt: 478, has: 'PH' },
  { de: 'München', en: 'Munich', country: 'DE', lon: 11.576, lat: 48.137, alt: 520, has: 'PHM', pm: 22 },
  { de: 'Nürnberg', en: 'Nuremberg', country: 'DE', lon: 11.078, lat: 49.454, alt: 310, has: 'PHM', pm: 21 },
  { de: 'Würzburg', country: 'DE', lon: 9.930, lat: 49.794, alt: 177, has: 'P' },
  { de: 'Regensburg', country: 'DE', lon: 12.102, lat: 49.013, alt: 338, has: 'PH' },
  { de: 'Passau', country: 'DE', lon: 13.431, lat: 48.574, alt: 305, has: 'P' },
  { de: 'Garmisch-Partenkirchen', country: 'DE', lon: 11.095, lat: 47.492, alt: 708, has: 'PH' },
  { de: 'Zugspitze', country: 'DE', lon: 10.985, lat: 47.421, alt: 2956, has: 'PH' },
  { de: 'Brocken', country: 'DE', lon: 10.618, lat: 51.799, alt: 1141, has: 'PH' },
  { de: 'Kiel', country: 'DE', lon: 10.137, lat: 54.323, alt: 27, has: 'PH' },
  { de: 'Rostock', country: 'DE', lon: 12.099, lat: 54.092, alt: 13, has: 'PHM', pm: 17 },
  { de: 'Amsterdam', country: 'NL', lon: 4.900, lat: 52.373, alt: -2, has: 'PHM', pm: 21 },
  { de: 'Rotterdam', country: 'NL', lon: 4.479, lat: 51.922, alt: 0, has: 'PM', pm: 23 },
  { de: 'Den Haag', en: 'The Hague', country: 'NL', lon: 4.300, lat: 52.078, alt: 2, has: 'H' },
  { de: 'Utrecht', country: 'NL', lon: 5.121, lat: 52.091, alt: 5, has: 'PM', pm: 20 },
  { de: 'De Bilt', country: 'NL', lon: 5.180, lat: 52.100, alt: 2, has: 'PH' },
  { de: 'Groningen', country: 'NL', lon: 6.567, lat: 53.219, alt: 4, has: 'PH' },
  { de: 'Eindhoven', country: 'NL', lon: 5.470, lat: 51.441, alt: 17, has: 'PM', pm: 20 },
  { de: 'Maastricht', country: 'NL', lon: 5.691, lat: 50.851, alt: 50, has: 'PH' },
  { de: 'Brüssel', en: 'Brussels', country: 'BE', lon: 4.352, lat: 50.847, alt: 58, has: 'PHM', pm: 24 },
  { de: 'Uccle', country: 'BE', lon: 4.358, lat: 50.798, alt: 100, has: 'PH' },
  { de: 'Antwerpen', en: 'Antwerp', country: 'BE', lon: 4.402, lat: 51.219, alt: 10, has: 'PM', pm: 25 },
  { de: 'Gent', en: 'Ghent', country: 'BE', lon: 3.726, lat: 51.054, alt: 10, has: 'P' },
  { de: 'Lüttich', en: 'Liège', country: 'BE', lon: 5.571, lat: 50.633, alt: 70, has: 'PM', pm: 22 },
  { de: 'Ostende', en: 'Ostend', country: 'BE', lon: 2.916, lat: 51.216, alt: 4, has: 'PH' },
];
