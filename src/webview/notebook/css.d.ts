/** Stylesheets bundled as text (esbuild's text loader): the renderer puts them in its shadow root. */
declare module '*.css' {
  const text: string;
  export default text;
}
