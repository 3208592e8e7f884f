/** Every panel, query and annotation uses the dashboard's `datasource` variable. */
export const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };
